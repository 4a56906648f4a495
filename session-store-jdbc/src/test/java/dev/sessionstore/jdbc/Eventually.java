package dev.sessionstore.jdbc;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a state a test observes, with a bound generous enough for a loaded machine; never a timed assertion. */
final class Eventually {

  private static final Duration BOUND = Duration.ofSeconds(60);

  private Eventually() {
  }

  /**
   * Returns once {@code condition} holds.
   *
   * @throws AssertionError naming {@code what} if it does not within a minute
   */
  static void until(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within " + BOUND.toSeconds() + " s: " + what);
      }
      Thread.sleep(10);
    }
  }
}
