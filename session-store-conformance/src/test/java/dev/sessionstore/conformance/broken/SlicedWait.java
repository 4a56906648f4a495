package dev.sessionstore.conformance.broken;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A wait cut into short slices, so that a broken store can look at the world between them: how a store that polls
 * some condition of its own while it waits behaves.
 */
final class SlicedWait {

  private static final Duration SLICE = Duration.ofMillis(20);

  private SlicedWait() {
  }

  /**
   * Calls {@code waitFor} with slices of {@code timeout} until its result is {@code done} or the timeout has passed,
   * and returns the last result.
   */
  static <T> T until(Duration timeout, Function<Duration, T> waitFor, Predicate<T> done) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
      T result = waitFor.apply(left.compareTo(SLICE) < 0 ? left : SLICE);
      if (left.isZero() || done.test(result)) {
        return result;
      }
    }
  }
}
