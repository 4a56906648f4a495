package dev.sessionstore.conformance.broken;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store that keeps the array handed to {@code put} instead of a copy and builds what {@code get} returns from
 * it, so a caller that reuses its buffer after the put silently rewrites the stored checkpoint.
 */
class BrokenCheckpointKeepsCallerArrayTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    Map<CheckpointKey, byte[]> arrays = new ConcurrentHashMap<>();
    Checkpoints broken = new ForwardingCheckpoints(real.checkpoints()) {
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
    };
    return new ForwardingStore(real) {
      @Override
      public Checkpoints checkpoints() {
        return broken;
      }
    };
  }

  @Override
  protected Class<?> group() {
    return SessionStoreConformance.Checkpoints.class;
  }

  @Override
  protected String failingTest() {
    return "storedBytesAreACopy";
  }

  @Override
  protected String failureMentions() {
    return "stored bytes after the caller changed its arrays";
  }
}
