package dev.sessionstore;

import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;

/** A stored checkpoint: opaque bytes under a key. Immutable: the bytes are copied in and out. */
public record Checkpoint(CheckpointKey key, byte[] data, Instant updatedAt) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public Checkpoint {
    Checks.requireNonNull("key", key);
    data = Checks.requireNonNull("data", data).clone();
    updatedAt = Checks.requireInstant("updatedAt", updatedAt);
  }

  /** A copy of the bytes. */
  @Override
  public byte[] data() {
    return data.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Checkpoint that
        && key.equals(that.key) && Arrays.equals(data, that.data) && updatedAt.equals(that.updatedAt);
  }

  @Override
  public int hashCode() {
    return (key.hashCode() * 31 + Arrays.hashCode(data)) * 31 + updatedAt.hashCode();
  }

  @Override
  public String toString() {
    String head = HexFormat.of().formatHex(data, 0, Math.min(data.length, 16));
    return "Checkpoint[key=" + key + ", data=" + data.length + " bytes (" + head
        + (data.length > 16 ? "..." : "") + "), updatedAt=" + updatedAt + "]";
  }
}
