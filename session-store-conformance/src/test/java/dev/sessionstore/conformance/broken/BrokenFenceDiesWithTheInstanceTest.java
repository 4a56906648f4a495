package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * The store of {@link BrokenFenceCountedPerInstanceTest}, caught by a second, independent check: the claim is gone
 * once the instance that made it is closed.
 */
class BrokenFenceDiesWithTheInstanceTest extends BrokenStoreTest {

  BrokenFenceDiesWithTheInstanceTest() {
    super(SessionStoreConformance.WriterFencing.class, "fencingSurvivesTheClaimingInstance",
        "current claim read after the claiming instance closed");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return BrokenFenceCountedPerInstanceTest.store(clock);
  }

  @Override
  protected SessionStore brokenPeer(SessionStore first, Clock clock) {
    return BrokenFenceCountedPerInstanceTest.peer(first);
  }
}
