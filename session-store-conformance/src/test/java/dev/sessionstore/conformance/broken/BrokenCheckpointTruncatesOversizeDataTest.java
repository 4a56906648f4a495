package dev.sessionstore.conformance.broken;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Limits;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Arrays;

/** A store that stores the first MAX_CHECKPOINT_BYTES of an oversize checkpoint instead of rejecting it. */
class BrokenCheckpointTruncatesOversizeDataTest extends BrokenStoreTest {

  BrokenCheckpointTruncatesOversizeDataTest() {
    super(SessionStoreConformance.ArgumentRules.class, "checkpointArgumentsAreChecked",
        "checkpoints().put of MAX_CHECKPOINT_BYTES + 1 bytes: the error");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withCheckpoints(checkpoints -> new ForwardingCheckpoints(checkpoints) {
      @Override
      public Checkpoint put(CheckpointKey key, byte[] data) {
        if (data != null && data.length > Limits.MAX_CHECKPOINT_BYTES) {
          return delegate.put(key, Arrays.copyOf(data, Limits.MAX_CHECKPOINT_BYTES));
        }
        return delegate.put(key, data);
      }
    });
  }
}
