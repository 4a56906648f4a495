package dev.sessionstore.jdbc.internal;

import java.util.concurrent.TimeUnit;

/**
 * The pauses between attempts of one unit of work while its database is unreachable: the first retry at once (a
 * single lost connection is replaced by the next one), then 20 ms doubling up to 1 s, never past a deadline. Not
 * thread-safe: one per call.
 */
final class RetryPause {

  private static final long FIRST_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final long deadline;
  private long next;

  /** Pauses that end by {@code deadline}, a {@link System#nanoTime()} value. */
  RetryPause(long deadline) {
    this.deadline = deadline;
  }

  /**
   * Waits before the next attempt.
   *
   * @return {@code false} without waiting if the deadline has passed; {@code false} with the thread's interrupt
   *     status set if it was interrupted while waiting; {@code true} once the pause is over
   */
  boolean pause() {
    long remaining = deadline - System.nanoTime();
    if (remaining <= 0) {
      return false;
    }
    long nanos = Math.min(next, remaining);
    next = next == 0 ? FIRST_NANOS : Math.min(next * 2, MAX_NANOS);
    if (nanos > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(nanos);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }
}
