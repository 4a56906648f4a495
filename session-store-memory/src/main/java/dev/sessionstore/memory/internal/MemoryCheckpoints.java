package dev.sessionstore.memory.internal;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.spi.IdOrder;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The checkpoints of an in-memory store: session-scoped ones live with their session (and go with it), global ones in
 * a store-wide map. Blobs are copied in and out by {@link Checkpoint}, so callers never share the stored bytes.
 */
final class MemoryCheckpoints implements Checkpoints {

  private final StoreContext context;
  private final SessionRegistry registry;
  /** Global checkpoints by name. */
  private final ConcurrentHashMap<String, Checkpoint> globals = new ConcurrentHashMap<>();

  MemoryCheckpoints(StoreContext context, SessionRegistry registry) {
    this.context = context;
    this.registry = registry;
  }

  @Override
  public Checkpoint put(CheckpointKey key, byte[] data) {
    if (!key.isSessionScoped()) {
      Checkpoint checkpoint = new Checkpoint(key, data, context.now());
      globals.put(key.name(), checkpoint);
      return checkpoint;
    }
    return registry.withCreatable(key.sessionId(), state -> {
      Instant now = context.now();
      registry.ensureExists(state, now);
      Checkpoint checkpoint = new Checkpoint(key, data, now);
      state.checkpoints.put(key.name(), checkpoint);
      return checkpoint;
    });
  }

  @Override
  public Optional<Checkpoint> get(CheckpointKey key) {
    if (!key.isSessionScoped()) {
      return Optional.ofNullable(globals.get(key.name()));
    }
    return registry.withExisting(key.sessionId(),
        state -> Optional.ofNullable(state.checkpoints.get(key.name())), Optional::empty);
  }

  @Override
  public boolean delete(CheckpointKey key) {
    if (!key.isSessionScoped()) {
      return globals.remove(key.name()) != null;
    }
    return registry.withExisting(key.sessionId(), state -> state.checkpoints.remove(key.name()) != null, () -> false);
  }

  /** The global checkpoint map itself, for {@link MemoryStoredValues}: read and replaced atomically per name. */
  ConcurrentHashMap<String, Checkpoint> globalMap() {
    return globals;
  }

  /** Every global checkpoint, by name in code point order. */
  List<Checkpoint> globals() {
    return globals.values().stream()
        .sorted(Comparator.comparing(checkpoint -> checkpoint.key().name(), IdOrder.BY_CODE_POINT))
        .toList();
  }

  /** Stores an exported global checkpoint as it is, unless its name holds one already. */
  ImportOutcome importGlobal(Checkpoint checkpoint) {
    Checkpoint stored = globals.putIfAbsent(checkpoint.key().name(), checkpoint);
    if (stored == null) {
      return ImportOutcome.IMPORTED;
    }
    return stored.equals(checkpoint) ? ImportOutcome.UNCHANGED : ImportOutcome.CONFLICT;
  }
}
