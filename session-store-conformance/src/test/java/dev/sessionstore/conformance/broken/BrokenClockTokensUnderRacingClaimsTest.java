package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** The store of {@link BrokenClockTokensTest}, caught by a second, independent check: racing claimants. */
class BrokenClockTokensUnderRacingClaimsTest extends BrokenStoreTest {

  BrokenClockTokensUnderRacingClaimsTest() {
    super(SessionStoreConformance.WriterFencing.class, "racingClaimantsGetDistinctTokensAndOnlyTheLastWrites",
        "tokens returned to 16 racing claimants");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return BrokenClockTokensTest.clockTokens(clock);
  }
}
