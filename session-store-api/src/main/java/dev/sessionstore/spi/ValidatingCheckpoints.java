package dev.sessionstore.spi;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import java.util.Optional;

/** The checkpoints of a {@link ValidatingSessionStore}: the closed check and the argument rules, then the adapter's. */
final class ValidatingCheckpoints implements Checkpoints {

  private final OpenGate gate;
  private final Checkpoints adapter;

  ValidatingCheckpoints(OpenGate gate, Checkpoints adapter) {
    this.gate = gate;
    this.adapter = adapter;
  }

  @Override
  public Checkpoint put(CheckpointKey key, byte[] data) {
    gate.checkOpen();
    Arguments.requireNonNull("key", key);
    return adapter.put(key, Arguments.requireCheckpointData("data", data));
  }

  @Override
  public Optional<Checkpoint> get(CheckpointKey key) {
    gate.checkOpen();
    Arguments.requireNonNull("key", key);
    return adapter.get(key);
  }

  @Override
  public boolean delete(CheckpointKey key) {
    gate.checkOpen();
    Arguments.requireNonNull("key", key);
    return adapter.delete(key);
  }
}
