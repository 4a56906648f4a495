package dev.sessionstore;


/**
 * Where a forked session came from: the parent session and the last seq it copied (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#11">11</a>).
 */
public record ForkOrigin(String sessionId, long seq) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public ForkOrigin {
    Checks.requireKey("forkOrigin.sessionId", sessionId);
    Checks.requirePositive("forkOrigin.seq", seq);
  }
}
