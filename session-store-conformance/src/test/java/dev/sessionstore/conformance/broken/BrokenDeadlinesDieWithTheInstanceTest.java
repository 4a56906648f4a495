package dev.sessionstore.conformance.broken;

import dev.sessionstore.Capability;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that declares durable deadlines while its instances share state that lives in the process of the one that
 * was opened first: the peer sees every write while that instance is open, and nothing once it is closed, as when
 * deadlines are kept by the process that set them.
 */
class BrokenDeadlinesDieWithTheInstanceTest extends BrokenStoreTest {

  BrokenDeadlinesDieWithTheInstanceTest() {
    super(SessionStoreConformance.SharedBackend.class, "aDeadlineOutlivesTheInstanceThatSetIt",
        "failed after the first instance was closed");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return declaring(correctStore(clock), Capability.DURABLE_DEADLINES);
  }

  /** A second view of the first instance's state, which closing the first instance closes too. */
  @Override
  protected SessionStore brokenPeer(SessionStore first, Clock clock) {
    return declaring(first);
  }
}
