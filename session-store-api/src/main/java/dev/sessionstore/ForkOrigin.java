package dev.sessionstore;

import dev.sessionstore.spi.Arguments;

/** Where a forked session came from: the parent session and the last seq it copied (SPEC guarantee 11). */
public record ForkOrigin(String sessionId, long seq) {

  public ForkOrigin {
    Arguments.requireKey("forkOrigin.sessionId", sessionId);
    Arguments.requirePositive("forkOrigin.seq", seq);
  }
}
