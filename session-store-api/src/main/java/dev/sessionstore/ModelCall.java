package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import java.time.Instant;

/** A stored model-call audit row. Immutable. */
public record ModelCall(String sessionId, long turn, String model, Json context, Json usage, Instant recordedAt) {

  public ModelCall {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNegative("turn", turn);
    Arguments.requireKey("model", model);
    Arguments.requireNonNull("context", context);
    Arguments.requireNonNull("usage", usage);
    recordedAt = Arguments.requireInstant("recordedAt", recordedAt);
  }
}
