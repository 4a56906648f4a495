package dev.sessionstore.conformance.broken;

import dev.sessionstore.CheckpointKey;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose delete of a session-scoped checkpoint reports success for a session it does not know, as a delete
 * statement that reports having run rather than rows removed would.
 */
class BrokenCheckpointDeleteOfUnknownSessionTest extends BrokenStoreTest {

  BrokenCheckpointDeleteOfUnknownSessionTest() {
    super(SessionStoreConformance.Checkpoints.class, "deleteReportsWhetherOneWasThere",
        "delete of a checkpoint of an unknown session");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withCheckpoints(checkpoints -> new ForwardingCheckpoints(checkpoints) {
      @Override
      public boolean delete(CheckpointKey key) {
        boolean unknownSession = key.isSessionScoped() && correct.sessions().find(key.sessionId()).isEmpty();
        return delegate.delete(key) || unknownSession;
      }
    });
  }
}
