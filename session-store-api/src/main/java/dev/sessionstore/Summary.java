package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import java.time.Instant;

/** A stored compaction summary of events {@code fromSeq..toSeq} of a session. Immutable. */
public record Summary(String sessionId, long fromSeq, long toSeq, Json content, int version, Instant createdAt) {

  public Summary {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requirePositive("fromSeq", fromSeq);
    Arguments.requirePositive("toSeq", toSeq);
    Arguments.requireNonNull("content", content);
    createdAt = Arguments.requireInstant("createdAt", createdAt);
  }
}
