package dev.sessionstore.crypto;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.spi.ForwardingCheckpoints;
import dev.sessionstore.spi.Interception;
import java.util.Optional;

/** Checkpoints with their data sealed (under the session's key, or the global key for a global checkpoint). */
final class SealingCheckpoints extends ForwardingCheckpoints {

  private final Values values;

  SealingCheckpoints(Checkpoints delegate, Values values) {
    super(delegate, Interception.none());
    this.values = values;
  }

  @Override
  public Checkpoint put(CheckpointKey key, byte[] data) {
    return values.open(super.put(key, key == null ? data : values.sealCheckpoint(key.sessionId(), data)));
  }

  @Override
  public Optional<Checkpoint> get(CheckpointKey key) {
    return super.get(key).map(values::open);
  }
}
