package dev.sessionstore.conformance.broken;

/**
 * The store of {@link BrokenFenceCountedPerInstanceTest}, caught by a second, independent check: the claim is gone
 * once the instance that made it is closed.
 */
class BrokenFenceDiesWithTheInstanceTest extends BrokenFenceCountedPerInstanceTest {

  BrokenFenceDiesWithTheInstanceTest() {
    super("fencingSurvivesTheClaimingInstance", "current claim read after the claiming instance closed");
  }
}
