package dev.sessionstore.spi;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import java.util.Optional;

/**
 * {@link Checkpoints} that forwards every method to a delegate through an {@link Interception}; a decorator overrides
 * the methods whose values it changes and calls {@code super} to forward. Thread-safe when the delegate and the
 * interception are.
 */
public class ForwardingCheckpoints implements Checkpoints {

  private final Checkpoints delegate;
  private final Interception interception;

  /** Forwards to {@code delegate}, every call through {@code interception}. */
  public ForwardingCheckpoints(Checkpoints delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  @Override
  public Checkpoint put(CheckpointKey key, byte[] data) {
    return interception.around("checkpoints.put", sessionOf(key), () -> delegate.put(key, data));
  }

  @Override
  public Optional<Checkpoint> get(CheckpointKey key) {
    return interception.around("checkpoints.get", sessionOf(key), () -> delegate.get(key));
  }

  @Override
  public boolean delete(CheckpointKey key) {
    return interception.around("checkpoints.delete", sessionOf(key), () -> delegate.delete(key));
  }

  private static String sessionOf(CheckpointKey key) {
    return key == null ? null : key.sessionId();
  }
}
