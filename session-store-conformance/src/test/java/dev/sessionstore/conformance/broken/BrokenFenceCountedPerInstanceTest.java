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
    super(SessionStoreConformance.WriterFencing.class, "claimsCrossInstances",
        "token of a claim through the second instance");
  }

  /** The same store, for a test that expects another kit test to fail. */
  static SessionStore store(Clock clock) {
    return ownCounter().over(correctStore(clock));
  }

  /** The peer of {@link #store}. */
  static SessionStore peer(SessionStore first) {
    return ownCounter().over(ForwardingStore.of(first).withClose(shared -> { }));
  }

  private static SideFencing ownCounter() {
    return new SideFencing(previous -> previous == null ? 1 : previous.token() + 1, true);
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return store(clock);
  }

  /** A second instance on the first's sessions (it forwards to the first), with a counter of its own. */
  @Override
  protected SessionStore brokenPeer(SessionStore first, Clock clock) {
    return peer(first);
  }
}
