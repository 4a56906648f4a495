package dev.sessionstore.jdbc.internal;

import dev.sessionstore.spi.Timeouts;
import dev.sessionstore.spi.StoreEventHub;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/**
 * The wait shared by every waiting read of one store (events, tool calls): read; if the result is not what the caller
 * waits for, sleep until the session is signalled ({@link SessionWaiters}) or a poll interval passes, and read
 * again, until the timeout. A signal raised between a read and the sleep is not lost: the sleep compares the
 * generation the read started at. The poll bounds the delay of a lost wake-up (the writer's process stopped before
 * announcing its commit, or a change no notification reports, such as a deadline the store clock reached). Closing
 * the store ({@link Database#close()}) ends every wait with its last result: the store wakes them all when it closes.
 *
 * <p>A wait counts as parked in the store's {@link Database#events() hub} while it sleeps; one that found what it
 * waited for right after a sleep ended by this instance's own commit reports its wake latency from that commit's
 * wake-up (another process's commit time is not known here, so its wake-ups are not measured).
 */
final class SessionWait {

  private final Database database;
  private final SessionWaiters waiters;
  private final Duration pollInterval;

  SessionWait(Database database, SessionWaiters waiters, Duration pollInterval) {
    this.database = database;
    this.waiters = waiters;
    this.pollInterval = pollInterval;
  }

  /**
   * Reads with {@code read} until {@code done} accepts the result or {@code timeout} passes, and returns the last
   * result, or the last result as soon as the store is closed; when the thread is interrupted, sets its interrupt flag
   * again and returns {@code interrupted}. The read is given the wait's deadline ({@link System#nanoTime()} based),
   * until which it may outwait a lost connection.
   */
  <T> T await(String sessionId, Duration timeout, LongFunction<T> read, Predicate<T> done, T interrupted) {
    long deadline = System.nanoTime() + Timeouts.nanos(timeout);
    StoreEventHub events = database.events();
    try (SessionWaiters.Waiter waiter = waiters.register(sessionId)) {
      OptionalLong wokenBy = OptionalLong.empty(); // when this instance committed the change that ended the last sleep
      while (true) {
        long generation = waiter.generation();
        T result = read.apply(deadline);
        long remaining = deadline - System.nanoTime();
        boolean found = done.test(result);
        if (found && wokenBy.isPresent()) {
          events.readWoken(Duration.ofNanos(System.nanoTime() - wokenBy.getAsLong()));
        }
        if (found || remaining <= 0 || database.isClosed()) {
          return result;
        }
        events.readParked();
        try {
          wokenBy = waiter.awaitAfter(generation, Math.min(remaining, pollInterval.toNanos()));
        } finally {
          events.readUnparked();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return interrupted;
    }
  }
}
