package dev.sessionstore.graph;

import dev.sessionstore.Json;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * A checkpoint's state exactly as the graph runtime's own serializer produced it: a JSON document, or bytes. Either
 * is stored losslessly in the checkpoint event's JSON payload (bytes as base64), so archives export and import it
 * and an encrypting store encrypts it with the rest of the payload. Immutable.
 */
public sealed interface CheckpointState permits CheckpointState.Document, CheckpointState.Bytes {

  /** State a serializer wrote as JSON. */
  static CheckpointState json(Json document) {
    return new Document(document);
  }

  /** State a serializer wrote as bytes; the array is copied. */
  static CheckpointState bytes(byte[] bytes) {
    return new Bytes(bytes);
  }

  /**
   * A JSON state.
   *
   * @param document the state as the serializer wrote it
   */
  record Document(Json document) implements CheckpointState {

    /** Checks the member. @throws NullPointerException if {@code document} is null */
    public Document {
      Objects.requireNonNull(document, "document");
    }
  }

  /**
   * A binary state. {@link #bytes()} returns a copy; equality is by content.
   *
   * @param bytes the state as the serializer wrote it
   */
  record Bytes(byte[] bytes) implements CheckpointState {

    /** Copies the member. @throws NullPointerException if {@code bytes} is null */
    public Bytes {
      bytes = Objects.requireNonNull(bytes, "bytes").clone();
    }

    /** A copy of the state's bytes. */
    @Override
    public byte[] bytes() {
      return bytes.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Bytes that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return "Bytes[" + bytes.length + " bytes, base64 " + Base64.getEncoder().encodeToString(
          Arrays.copyOf(bytes, Math.min(bytes.length, 24))) + (bytes.length > 24 ? "...]" : "]");
    }
  }
}
