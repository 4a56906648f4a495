package dev.sessionstore.memory.internal;

import dev.sessionstore.FencedWriterException;
import dev.sessionstore.WriterClaim;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The writer-fencing state of an in-memory store: the current claim of every session id ever claimed. It lives beside
 * the sessions' states, not in them, so that deleting a session keeps it and tokens of the id keep growing. A claim
 * is changed, and a step's token checked, only under the session's lock (the caller holds it for the check), so a
 * claim and a step of one session serialize: a step checked against one claim is stored before the next claim is
 * made.
 */
final class WriterFences {

  private final SessionRegistry registry;
  private final ConcurrentHashMap<String, WriterClaim> current = new ConcurrentHashMap<>();

  WriterFences(SessionRegistry registry) {
    this.registry = registry;
  }

  /** A new claim of {@code sessionId} for {@code ownerId}, with a token one above the current one. */
  WriterClaim claim(String sessionId, String ownerId) {
    SessionState state = registry.lockLive(sessionId);
    try {
      WriterClaim previous = current.get(sessionId);
      WriterClaim claim = new WriterClaim(sessionId, ownerId, previous == null ? 1 : previous.token() + 1);
      current.put(sessionId, claim);
      return claim;
    } finally {
      registry.discardIfUnused(state);
      state.lock.unlock();
    }
  }

  /** The current claim of {@code sessionId}, or empty when it was never claimed. */
  Optional<WriterClaim> currentClaim(String sessionId) {
    return Optional.ofNullable(current.get(sessionId));
  }

  /**
   * Fails unless {@code fence} is empty or the session's current token; the caller holds the session's lock.
   *
   * @throws FencedWriterException naming the current claim
   */
  void check(String sessionId, OptionalLong fence) {
    if (fence.isEmpty()) {
      return;
    }
    WriterClaim claim = current.get(sessionId);
    if (claim == null || claim.token() != fence.getAsLong()) {
      throw new FencedWriterException(sessionId, fence.getAsLong(), claim == null ? 0 : claim.token(),
          claim == null ? null : claim.ownerId());
    }
  }
}
