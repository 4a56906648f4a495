package dev.sessionstore;


/**
 * Where a forked session came from: the parent session and the last seq it copied (guarantee 11 of docs/guarantees.md).
 */
public record ForkOrigin(String sessionId, long seq) {

  public ForkOrigin {
    Checks.requireKey("forkOrigin.sessionId", sessionId);
    Checks.requirePositive("forkOrigin.seq", seq);
  }
}
