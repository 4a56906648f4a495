package dev.sessionstore;

import java.time.Instant;

/** A stored compaction summary of events {@code fromSeq..toSeq} of a session. Immutable. */
public record Summary(String sessionId, long fromSeq, long toSeq, Json content, int version, Instant createdAt) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public Summary {
    Checks.requireKey("sessionId", sessionId);
    Checks.requirePositive("fromSeq", fromSeq);
    Checks.requirePositive("toSeq", toSeq);
    Checks.requireNonNull("content", content);
    createdAt = Checks.requireInstant("createdAt", createdAt);
  }
}
