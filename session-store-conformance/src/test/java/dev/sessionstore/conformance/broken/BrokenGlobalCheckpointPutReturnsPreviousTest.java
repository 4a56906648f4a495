package dev.sessionstore.conformance.broken;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose put of a global checkpoint returns what the key held before, as {@code Map.put} does: {@code null}
 * for a new key, the old value on an overwrite.
 */
class BrokenGlobalCheckpointPutReturnsPreviousTest extends BrokenStoreTest {

  BrokenGlobalCheckpointPutReturnsPreviousTest() {
    super(SessionStoreConformance.Checkpoints.class, "putReturnsWhatItStored",
        "put of new checkpoint CheckpointKey[sessionId=null");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withCheckpoints(stored -> new ForwardingCheckpoints(stored) {
      @Override
      public Checkpoint put(CheckpointKey key, byte[] data) {
        Optional<Checkpoint> previous = delegate.get(key);
        Checkpoint stored = delegate.put(key, data);
        return key.isSessionScoped() ? stored : previous.orElse(null);
      }
    });
  }
}
