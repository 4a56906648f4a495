package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose fencing tokens are the store clock's milliseconds, as a clock-based ownership check would be: two
 * claims in the same millisecond get equal tokens, so the superseded writer still holds a current token.
 */
class BrokenClockTokensTest extends BrokenStoreTest {

  BrokenClockTokensTest() {
    super(SessionStoreConformance.WriterFencing.class, "claimsGrowTheToken", "token of the second claim");
  }

  /** The correct store with tokens read from {@code clock}. */
  static SessionStore clockTokens(Clock clock) {
    return new SideFencing(previous -> Math.max(1, clock.millis()), true).over(correctStore(clock));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return clockTokens(clock);
  }
}
