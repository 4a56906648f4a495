package dev.sessionstore;

import dev.sessionstore.spi.Arguments;

/**
 * The right to write to one session, granted by {@link Sessions#claim}: the fencing token a writer carries on its
 * steps ({@link Step.Builder#fence}) so that the store can refuse its writes once another writer has claimed the
 * session.
 *
 * <p>Tokens of one session id only grow: every claim returns a token greater than every token any earlier claim of
 * that session id returned, through any store instance on the same backend, across restarts on a durable backend, and
 * after the session is deleted and created again. They are not consecutive.
 *
 * @param sessionId the claimed session
 * @param ownerId   who claimed it, as the claimant named itself (a node, process or worker id)
 * @param token     the fencing token, at least 1
 */
public record WriterClaim(String sessionId, String ownerId, long token) {

  public WriterClaim {
    Arguments.requireKey("claim.sessionId", sessionId);
    Arguments.requireKey("claim.ownerId", ownerId);
    Arguments.requirePositive("claim.token", token);
  }
}
