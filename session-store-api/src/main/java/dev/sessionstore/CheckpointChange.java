package dev.sessionstore;

import java.util.Arrays;
import java.util.Optional;

/**
 * A session checkpoint (turn state) put or deleted inside a {@link Step}, as {@link Checkpoints#put} and
 * {@link Checkpoints#delete} do for {@code CheckpointKey.of(step's session, name)}. Immutable: the bytes are copied in
 * and out.
 *
 * @param name the checkpoint's name within the step's session
 * @param data the bytes to store, or {@code null} to delete the checkpoint
 */
public record CheckpointChange(String name, byte[] data) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public CheckpointChange {
    Checks.requireKey("checkpoint.name", name);
    data = data == null ? null : Checks.requireCheckpointData("checkpoint.data", data).clone();
  }

  /** Stores {@code data} under {@code name}, replacing what was there. */
  public static CheckpointChange put(String name, byte[] data) {
    return new CheckpointChange(name, Checks.requireNonNull("checkpoint.data", data));
  }

  /** Deletes the checkpoint {@code name}, if there is one. */
  public static CheckpointChange delete(String name) {
    return new CheckpointChange(name, null);
  }

  /** A copy of the bytes to store, or {@code null} for a delete. */
  @Override
  public byte[] data() {
    return data == null ? null : data.clone();
  }

  /** A copy of the bytes to store, or empty when this change deletes the checkpoint. */
  public Optional<byte[]> putData() {
    return Optional.ofNullable(data());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CheckpointChange that && name.equals(that.name) && Arrays.equals(data, that.data);
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + Arrays.hashCode(data);
  }

  @Override
  public String toString() {
    return "CheckpointChange[name=" + name + ", " + (data == null ? "delete" : data.length + " bytes") + "]";
  }
}
