package dev.sessionstore.conformance.broken;

import dev.sessionstore.Capability;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that declares cross-process wake-ups and durable deadlines, whose "second instance" is a store of its own
 * that shares nothing with the first: as when an adapter's peer points at another schema or file, or its instances
 * keep everything in process. A waiting read on the first never hears of the peer's appends.
 */
class BrokenPeerIsAnIsolatedStoreTest extends BrokenStoreTest {

  BrokenPeerIsAnIsolatedStoreTest() {
    super(SessionStoreConformance.SharedBackend.class, "wakesOnAnAppendThroughThePeer",
        "did not wake within 2000 ms of the append through the other instance");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return declaring(correctStore(clock), Capability.CROSS_PROCESS_WAKEUP, Capability.DURABLE_DEADLINES);
  }

  @Override
  protected SessionStore brokenPeer(SessionStore first, Clock clock) {
    return declaring(correctStore(clock), Capability.CROSS_PROCESS_WAKEUP, Capability.DURABLE_DEADLINES);
  }
}
