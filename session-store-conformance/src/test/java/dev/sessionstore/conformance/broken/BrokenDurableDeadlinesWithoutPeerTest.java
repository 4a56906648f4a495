package dev.sessionstore.conformance.broken;

import dev.sessionstore.Capability;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that declares durable deadlines but gives the kit no second instance to check them with: a claim that
 * cannot be verified counts as a failure, not a skip.
 */
class BrokenDurableDeadlinesWithoutPeerTest extends BrokenStoreTest {

  BrokenDurableDeadlinesWithoutPeerTest() {
    super(SessionStoreConformance.SharedBackend.class, "aDeadlineOutlivesTheInstanceThatSetIt",
        "declares Capability.DURABLE_DEADLINES but newPeerStore returned null");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return declaring(correctStore(clock), Capability.DURABLE_DEADLINES);
  }
}
