package dev.sessionstore.crypto;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.spi.Arguments;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A fixed set of master keys by id, one of them current: the built-in {@link KeyProvider} for rotation. New values
 * are sealed under the current key; values sealed under any key of the ring still open. Rotating is building a ring
 * with the new key added and made current, the old ones kept as long as values sealed under them are stored.
 * Immutable and thread-safe; keys are copied in.
 */
public final class KeyRing implements KeyProvider {

  /** The shortest master key accepted, in bytes: 256 bits. */
  public static final int MIN_KEY_BYTES = 32;

  private final Map<String, byte[]> keys;
  private final String current;

  private KeyRing(Map<String, byte[]> keys, String current) {
    this.keys = Map.copyOf(keys);
    this.current = current;
  }

  /** A builder of a ring. */
  public static Builder builder() {
    return new Builder();
  }

  /** The current key's id. */
  @Override
  public String currentKeyId() {
    return current;
  }

  /** A copy of the key of {@code keyId}, or empty if the ring does not hold it. */
  @Override
  public Optional<byte[]> key(String keyId) {
    return Optional.ofNullable(keys.get(keyId)).map(byte[]::clone);
  }

  /** The ring's description: its key ids and the current one, never key material. */
  @Override
  public String toString() {
    return "KeyRing[keys=" + keys.keySet().stream().sorted().toList() + ", current=" + current + "]";
  }

  /** Builds a {@link KeyRing}. Not thread-safe; the ring is. */
  public static final class Builder {

    private final Map<String, byte[]> keys = new LinkedHashMap<>();
    private String current;

    private Builder() {
    }

    /**
     * Adds master key {@code keyId}.
     *
     * @throws InvalidArgumentException naming {@code keyId} if it is not a valid key or already added, or
     *                                  {@code material} if it is null or shorter than {@value #MIN_KEY_BYTES} bytes
     */
    public Builder add(String keyId, byte[] material) {
      Arguments.requireKey("keyId", keyId);
      Arguments.requireNonNull("material", material);
      if (material.length < MIN_KEY_BYTES) {
        throw new InvalidArgumentException("material", "a master key has at least " + MIN_KEY_BYTES + " bytes, not "
            + material.length);
      }
      if (keys.putIfAbsent(keyId, material.clone()) != null) {
        throw new InvalidArgumentException("keyId", "key " + keyId + " is already in the ring");
      }
      return this;
    }

    /**
     * Makes {@code keyId} the key new values are sealed under.
     *
     * @throws InvalidArgumentException naming {@code keyId} if it is null or current was set before
     */
    public Builder current(String keyId) {
      Arguments.requireKey("keyId", keyId);
      if (current != null) {
        throw new InvalidArgumentException("keyId", "the current key is already " + current);
      }
      current = keyId;
      return this;
    }

    /**
     * The ring.
     *
     * @throws InvalidArgumentException naming {@code current} if no current key was chosen or the ring lacks it
     */
    public KeyRing build() {
      if (current == null || !keys.containsKey(current)) {
        throw new InvalidArgumentException("current", "choose the current key among the ring's " + keys.keySet()
            + (current == null ? "" : ", not " + current));
      }
      return new KeyRing(keys, current);
    }
  }
}
