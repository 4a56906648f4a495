package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose instances share every session but keep their fencing tokens each in its own memory: a claim through
 * one instance does not fence the other's writers, and the fencing dies with the instance.
 */
class BrokenFenceCountedPerInstanceTest extends BrokenStoreTest {

  BrokenFenceCountedPerInstanceTest() {
    this("claimsCrossInstances", "token of a claim through the second instance");
  }

  BrokenFenceCountedPerInstanceTest(String failingTest, String failureMentions) {
    super(SessionStoreConformance.WriterFencing.class, failingTest, failureMentions);
  }

  private static SideFencing ownCounter() {
    return new SideFencing(previous -> previous == null ? 1 : previous.token() + 1, true);
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ownCounter().over(correctStore(clock));
  }

  /** A second instance on the first's sessions (it forwards to the first), with a counter of its own. */
  @Override
  protected SessionStore brokenPeer(SessionStore first, Clock clock) {
    return ownCounter().over(ForwardingStore.of(first).withClose(shared -> { }));
  }
}
