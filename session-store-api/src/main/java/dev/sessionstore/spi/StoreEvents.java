package dev.sessionstore.spi;

import java.time.Duration;

/**
 * A listener for what happens inside a store that its caller cannot see from the outside: retries of its own work,
 * unknown commit outcomes it settled, tool-call deadlines it fired, and how quickly a waiting read returned after the
 * append that ended it. Metrics are the intended use ({@code SessionStoreMetrics} in session-store-micrometer). Given
 * to {@link StoreEventSource#subscribe}.
 *
 * <p>Every method has a no-op default, so a listener implements only what it needs, and a method added later breaks
 * no listener. A store calls the methods on the thread doing the work (a caller's thread, or the store's own
 * deadline thread), after the event and never under a lock a store operation waits for, so an implementation must be
 * thread-safe, quick and non-blocking. An exception it throws never changes the store operation: the store drops it
 * and logs the first one per subscription. No argument is ever {@code null}; no method receives a session id, so
 * nothing high-cardinality reaches a meter by accident.
 */
public interface StoreEvents {

  /** A listener that ignores every event. */
  StoreEvents NONE = new StoreEvents() {
  };

  /**
   * The store ran a unit of work again inside one call, for {@code cause}: once per repetition, so a call that ran
   * three times reports two. Reported before the repetition runs.
   *
   * @param cause why the previous attempt failed
   */
  default void retried(RetryCause cause) {
  }

  /**
   * The store settled by itself a call whose commit outcome was unknown, as {@code outcome} says; once per doubt
   * settled, however many times it asked the database (a call whose commit is lost twice reports twice).
   *
   * @param outcome how it was settled
   */
  default void outcomeSettled(SettledOutcome outcome) {
  }

  /**
   * The store's own deadline work (its sweeper or timer, not a read that found a call past due) expired one pending
   * tool call whose deadline the store clock had reached: once per call expired.
   */
  default void deadlineFired() {
  }

  /**
   * A waiting read returned events (or a tool call its result) after it had been parked and was woken by a commit
   * of this same store instance: {@code sinceCommit} is the real time from that commit's wake-up to the read's
   * return, by {@link System#nanoTime()}. Not reported when the read found what it waited for at once, timed out,
   * or was woken by another process (whose commit time this store does not know).
   *
   * @param sinceCommit the wake latency, zero or positive
   */
  default void readWoken(Duration sinceCommit) {
  }
}
