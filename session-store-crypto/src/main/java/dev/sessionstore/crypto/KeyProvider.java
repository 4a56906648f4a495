package dev.sessionstore.crypto;

import dev.sessionstore.InvalidArgumentException;
import java.util.Optional;

/**
 * Where an {@link EncryptingSessionStore} gets its master keys: the id of the key new values are sealed under, and
 * the key material of any id a stored value names. Per-session keys are derived from a master key (HKDF), so one
 * master key serves every session. To rotate: make a new key current and keep the old ones available while values
 * sealed under them are stored (see {@link KeyRing}). Implementations must be thread-safe; they may
 * read keys from a KMS or a vault and cache them.
 */
public interface KeyProvider {

  /** The id of the master key new values are sealed under; it must be available through {@link #key}. */
  String currentKeyId();

  /**
   * The material of master key {@code keyId} (at least 32 bytes), or empty when this provider does not have it.
   * The store does not modify or keep the returned array beyond deriving keys from it.
   */
  Optional<byte[]> key(String keyId);

  /**
   * A provider of one key, {@code keyId} with {@code material}: the simplest setup, before any rotation.
   *
   * @throws InvalidArgumentException naming {@code keyId} or {@code material} if one is invalid (material shorter
   *                                  than 32 bytes)
   */
  static KeyProvider of(String keyId, byte[] material) {
    return KeyRing.builder().add(keyId, material).current(keyId).build();
  }
}
