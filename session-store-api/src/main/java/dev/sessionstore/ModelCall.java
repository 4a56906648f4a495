package dev.sessionstore;

import java.time.Instant;

/** A stored model-call audit row. Immutable. */
public record ModelCall(String sessionId, long turn, String model, Json context, Json usage, Instant recordedAt) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public ModelCall {
    Checks.requireKey("sessionId", sessionId);
    Checks.requireNonNegative("turn", turn);
    Checks.requireKey("model", model);
    Checks.requireNonNull("context", context);
    Checks.requireNonNull("usage", usage);
    recordedAt = Checks.requireInstant("recordedAt", recordedAt);
  }
}
