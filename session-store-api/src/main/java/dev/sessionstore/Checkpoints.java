package dev.sessionstore;

import java.util.Optional;

/**
 * Opaque byte blobs under a key, overwritten in place: runner checkpoints, suspended turn state. Thread-safe; a
 * {@link #put} is visible to the next {@link #get} from any thread. A session-scoped put creates the session if
 * unknown; deleting the session deletes its checkpoints.
 */
public interface Checkpoints {

  /**
   * Stores {@code data} under {@code key}, replacing what was there.
   *
   * @throws InvalidArgumentException if {@code data} is null or larger than {@link Limits#MAX_CHECKPOINT_BYTES}
   */
  Checkpoint put(CheckpointKey key, byte[] data);

  /** The checkpoint under {@code key}, or empty. */
  Optional<Checkpoint> get(CheckpointKey key);

  /** Removes the checkpoint under {@code key}; returns whether one was there. */
  boolean delete(CheckpointKey key);
}
