package dev.sessionstore.memory.internal;

import java.time.Duration;

/** Duration arithmetic for timed waits, where "longer than a long of nanos can say" means "practically forever". */
final class Durations {

  private Durations() {
  }

  /** {@code duration} in nanoseconds: 0 when negative, {@link Long#MAX_VALUE} when too long to express. */
  static long nanosUpToForever(Duration duration) {
    if (duration.isNegative()) {
      return 0;
    }
    try {
      return duration.toNanos();
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }
}
