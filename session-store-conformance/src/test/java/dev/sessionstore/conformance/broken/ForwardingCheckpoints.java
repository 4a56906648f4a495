package dev.sessionstore.conformance.broken;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import java.util.Optional;

/** Forwards every call to a delegate; broken stores override the one method they break. */
public class ForwardingCheckpoints implements Checkpoints {

  protected final Checkpoints delegate;

  public ForwardingCheckpoints(Checkpoints delegate) {
    this.delegate = delegate;
  }

  @Override
  public Checkpoint put(CheckpointKey key, byte[] data) {
    return delegate.put(key, data);
  }

  @Override
  public Optional<Checkpoint> get(CheckpointKey key) {
    return delegate.get(key);
  }

  @Override
  public boolean delete(CheckpointKey key) {
    return delegate.delete(key);
  }
}
