package dev.sessionstore.conformance.broken;

import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValueKind;
import dev.sessionstore.spi.StoredValuePage;
import dev.sessionstore.spi.StoredValues;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose stored-value rewrite of a session checkpoint goes through the normal write path: it compares the
 * data and then puts the new data, which restamps the checkpoint's {@code updatedAt} with the store clock.
 */
class BrokenRewriteRestampsCheckpointsTest extends BrokenStoreTest {

  BrokenRewriteRestampsCheckpointsTest() {
    super(SessionStoreConformance.StoredValues.class, "aRewrittenValueReadsBack", "record after the rewrites");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    Checkpoints checkpoints = correct.checkpoints();
    return ForwardingStore.of(correct).withStoredValues(values -> new StoredValues() {
      @Override
      public StoredValuePage scan(Optional<String> cursor, int limit) {
        return values.scan(cursor, limit);
      }

      @Override
      public boolean rewrite(StoredValue expected, StoredValue replacement) {
        if (expected.ref().kind() != StoredValueKind.CHECKPOINT_DATA) {
          return values.rewrite(expected, replacement);
        }
        CheckpointKey key = CheckpointKey.of(expected.ref().sessionId(), expected.ref().key());
        if (checkpoints.get(key).filter(stored -> expected.blobEquals(stored.data())).isEmpty()) {
          return false;
        }
        checkpoints.put(key, replacement.blob());
        return true;
      }
    });
  }
}
