package dev.sessionstore.memory.internal;

import dev.sessionstore.ConflictException;
import dev.sessionstore.spi.Failures;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Store-wide unique keys, each owned by one session: session names. Claiming is atomic, so
 * two sessions can never own one key, whatever the interleaving. A claim is invisible to readers; callers claim
 * before they store what the key names and release a claim they could not use.
 */
final class OwnerIndex {

  private final String kind;
  private final ConcurrentHashMap<String, String> owners = new ConcurrentHashMap<>();

  /** @param kind what the keys are, for error messages: {@code "session name"} */
  OwnerIndex(String kind) {
    this.kind = kind;
  }

  /** The session owning {@code key}, or {@code null}. */
  String owner(String key) {
    return owners.get(key);
  }

  /**
   * Fails unless {@code sessionId} owns {@code key} or nobody does; claims nothing.
   *
   * @throws ConflictException if another session owns it
   */
  void requireAvailable(String key, String sessionId) {
    String owner = owners.get(key);
    if (owner != null && !owner.equals(sessionId)) {
      throw conflict(key, sessionId, owner);
    }
  }

  /**
   * Makes {@code sessionId} the owner of {@code key}, unless it owns it already.
   *
   * @throws ConflictException if another session owns it
   */
  void claim(String key, String sessionId) {
    String owner = owners.putIfAbsent(key, sessionId);
    if (owner != null && !owner.equals(sessionId)) {
      throw conflict(key, sessionId, owner);
    }
  }

  /** Gives up {@code sessionId}'s ownership of {@code key}, if it has it. */
  void release(String key, String sessionId) {
    owners.remove(key, sessionId);
  }

  /** The conflict every adapter raises for a taken name ({@link Failures#nameTaken}). */
  private ConflictException conflict(String key, String sessionId, String owner) {
    return Failures.nameTaken(key);
  }
}
