package dev.sessionstore.conformance.broken;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store that keeps the array handed to {@code put} instead of a copy and builds what {@code get} returns from
 * it, so a caller that reuses its buffer after the put silently rewrites the stored checkpoint.
 */
class BrokenCheckpointKeepsCallerArrayTest extends BrokenStoreTest {

  BrokenCheckpointKeepsCallerArrayTest() {
    super(SessionStoreConformance.Checkpoints.class, "storedBytesAreACopy",
        "stored bytes after the caller changed its arrays");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock))
        .withCheckpoints(checkpoints -> new ForwardingCheckpoints(checkpoints) {
          /** The caller's own array of each stored checkpoint. */
          private final Map<CheckpointKey, byte[]> arrays = new ConcurrentHashMap<>();

          @Override
          public Checkpoint put(CheckpointKey key, byte[] data) {
            Checkpoint stored = delegate.put(key, data);
            arrays.put(key, data);
            return stored;
          }

          @Override
          public Optional<Checkpoint> get(CheckpointKey key) {
            return delegate.get(key).map(stored -> new Checkpoint(key, arrays.getOrDefault(key, stored.data()),
                stored.updatedAt()));
          }

          @Override
          public boolean delete(CheckpointKey key) {
            arrays.remove(key);
            return delegate.delete(key);
          }
        });
  }
}
