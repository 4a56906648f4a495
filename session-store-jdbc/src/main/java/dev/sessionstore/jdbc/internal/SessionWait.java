package dev.sessionstore.jdbc.internal;

import dev.sessionstore.spi.StoreEventHub;
import dev.sessionstore.spi.Timeouts;
import dev.sessionstore.spi.WaitOutages;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wait shared by every waiting read of one store (events, tool calls): read; if the result is not what the caller
 * waits for, sleep until the session is signalled ({@link SessionWaiters}) or a poll interval passes, and read
 * again, until the timeout. A signal raised between a read and the sleep is not lost: the sleep compares the
 * generation the read started at. The poll bounds the delay of a lost wake-up (the writer's process stopped before
 * announcing its commit, or a change no notification reports, such as a deadline the store clock reached). Closing
 * the store ({@link Database#close()}) ends every wait with its last result: the store wakes them all when it closes.
 *
 * <p>A wait outlives a database it cannot reach until its timeout (guarantee 17): each read runs once
 * ({@link Database#readOnce}), and one that fails retryably is read again after the backoff of {@link WaitOutages}
 * (the sleep still ends early on a signal, such as the listener's wake-up of every waiter once it listens again); a
 * timeout that passes meanwhile returns what a timeout returns. The outage is logged once per store, not per wait.
 *
 * <p>A wait counts as parked in the store's {@link Database#events() hub} while it sleeps; one that found what it
 * waited for right after a sleep ended by this instance's own commit reports its wake latency from that commit's
 * wake-up (another process's commit time is not known here, so its wake-ups are not measured).
 */
final class SessionWait {

  private static final Logger LOG = LoggerFactory.getLogger(SessionWait.class);

  private final Database database;
  private final SessionWaiters waiters;
  private final Duration pollInterval;
  private final WaitOutages outages;

  /** @param backend what the store reads, for the log of an outage */
  SessionWait(Database database, SessionWaiters waiters, Duration pollInterval, String backend) {
    this.database = database;
    this.waiters = waiters;
    this.pollInterval = pollInterval;
    this.outages = new WaitOutages(backend, LOG::warn, LOG::info);
  }

  /**
   * Reads with {@code read} until {@code done} accepts the result or {@code timeout} passes, and returns the last
   * result ({@code nothing} if no read answered), or the last result as soon as the store is closed; when the thread
   * is interrupted, sets its interrupt flag again and returns {@code nothing}. A read that fails retryably is
   * made again until the timeout; one that fails otherwise ends the wait with its exception.
   */
  <T> T await(String sessionId, Duration timeout, Supplier<T> read, Predicate<T> done, T nothing) {
    long deadline = System.nanoTime() + Timeouts.nanos(timeout);
    StoreEventHub events = database.events();
    WaitOutages.Retry retry = outages.retry();
    T last = nothing;
    try (SessionWaiters.Waiter waiter = waiters.register(sessionId)) {
      OptionalLong wokenBy = OptionalLong.empty(); // when this instance committed the change that ended the last sleep
      while (true) {
        long generation = waiter.generation();
        Optional<T> result = retry.attempt(read);
        long remaining = deadline - System.nanoTime();
        boolean found = result.isPresent() && done.test(result.get());
        if (result.isPresent()) {
          last = result.get();
        }
        if (found && wokenBy.isPresent()) {
          events.readWoken(Duration.ofNanos(System.nanoTime() - wokenBy.getAsLong()));
        }
        if (found || remaining <= 0 || database.isClosed()) {
          return last;
        }
        events.readParked();
        try {
          wokenBy = waiter.awaitAfter(generation, Math.min(remaining, retry.pauseNanos(pollInterval.toNanos())));
        } finally {
          events.readUnparked();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return nothing;
    }
  }
}
