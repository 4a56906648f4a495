package dev.sessionstore.jdbc.internal;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The pauses between attempts of one unit of work, never past a deadline. Two schedules: while the database is
 * unreachable ({@link #afterLostConnection}) the first retry comes at once (a single lost connection is replaced by
 * the next one), then 20 ms doubling up to 1 s; after a deadlock or serialization failure ({@link #afterConflict})
 * each pause is drawn at random between half and all of a bound that starts at 10 ms and doubles up to 250 ms, so
 * that transactions that collided do not collide again in step. Not thread-safe: one per call.
 */
final class RetryPause {

  private static final long CONNECTION_FIRST_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  private static final long CONNECTION_MAX_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final long CONFLICT_FIRST_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  private static final long CONFLICT_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  private final long deadline;
  private final long growFrom;
  private final long max;
  private final boolean jittered;
  private long next;

  private RetryPause(long deadline, long first, long growFrom, long max, boolean jittered) {
    this.deadline = deadline;
    this.next = first;
    this.growFrom = growFrom;
    this.max = max;
    this.jittered = jittered;
  }

  /** Pauses after lost connections that end by {@code deadline}, a {@link System#nanoTime()} value. */
  static RetryPause afterLostConnection(long deadline) {
    return new RetryPause(deadline, 0, CONNECTION_FIRST_NANOS, CONNECTION_MAX_NANOS, false);
  }

  /** Jittered pauses after deadlocks and serialization failures that end by {@code deadline}. */
  static RetryPause afterConflict(long deadline) {
    return new RetryPause(deadline, CONFLICT_FIRST_NANOS, CONFLICT_FIRST_NANOS, CONFLICT_MAX_NANOS, true);
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
    long bound = next;
    long nanos = Math.min(jittered ? bound / 2 + ThreadLocalRandom.current().nextLong(bound / 2 + 1) : bound,
        remaining);
    next = next == 0 ? growFrom : Math.min(next * 2, max);
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
