package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;

/**
 * How every adapter turns a caller's timeout into a wait or a deadline. A timeout too long to count in nanoseconds
 * means "practically forever", never an error or an overflow; a timeout that puts a deadline past the end of time is
 * rejected.
 */
public final class Timeouts {

  /**
   * The longest wait in nanoseconds, about 146 years: half of {@code Long.MAX_VALUE}, so that
   * {@code System.nanoTime() + nanos} and the differences taken from it never overflow.
   */
  public static final long FOREVER_NANOS = Long.MAX_VALUE / 2;

  private Timeouts() {
  }

  /** {@code timeout} in nanoseconds, capped at {@link #FOREVER_NANOS}; 0 when it is negative. */
  public static long nanos(Duration timeout) {
    if (timeout.isNegative()) {
      return 0;
    }
    try {
      return Math.min(timeout.toNanos(), FOREVER_NANOS);
    } catch (ArithmeticException tooLong) {
      return FOREVER_NANOS;
    }
  }

  /**
   * The deadline {@code timeout} after {@code now}, as {@link dev.sessionstore.ToolCalls#expireAfter} sets it.
   *
   * @throws InvalidArgumentException naming {@code timeout} if the deadline is past the end of time
   */
  public static Instant deadlineAfter(Instant now, Duration timeout) {
    try {
      return now.plus(timeout);
    } catch (DateTimeException | ArithmeticException tooLong) {
      throw new InvalidArgumentException("timeout", "too long: the deadline is past the end of time (" + timeout + ")");
    }
  }

  /**
   * The instant {@code age} before {@code now}: what is older than {@code age} was recorded before it, as
   * {@link dev.sessionstore.ModelCallAudit#deleteOlderThan} counts age. {@link Instant#MIN} when {@code age} reaches
   * past the beginning of time, so that nothing is older.
   */
  public static Instant cutoff(Instant now, Duration age) {
    try {
      return now.minus(age);
    } catch (DateTimeException | ArithmeticException beforeTime) {
      return Instant.MIN;
    }
  }
}
