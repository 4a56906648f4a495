package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that claims nothing about other processes but offers a peer, which is a separate store seeing none of the
 * first one's writes. Offering a peer is enough for the kit to hold both instances to read-after-write.
 */
class BrokenPeerSeesOnlyItsOwnWritesTest extends BrokenStoreTest {

  BrokenPeerSeesOnlyItsOwnWritesTest() {
    super(SessionStoreConformance.SharedBackend.class, "eachInstanceReadsTheOthersWrites",
        "saved through the first instance, looked up through the second");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return correctStore(clock);
  }

  @Override
  protected SessionStore brokenPeer(SessionStore first, Clock clock) {
    return correctStore(clock);
  }
}
