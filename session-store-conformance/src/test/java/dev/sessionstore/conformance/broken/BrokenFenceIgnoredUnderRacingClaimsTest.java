package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** The store of {@link BrokenFenceIgnoredTest}, caught by a second, independent check: racing claimants. */
class BrokenFenceIgnoredUnderRacingClaimsTest extends BrokenStoreTest {

  BrokenFenceIgnoredUnderRacingClaimsTest() {
    super(SessionStoreConformance.WriterFencing.class, "racingClaimantsGetDistinctTokensAndOnlyTheLastWrites",
        "writers whose step was stored");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return BrokenFenceIgnoredTest.ignoringTokens(clock);
  }
}
