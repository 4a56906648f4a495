package dev.sessionstore;

import java.util.Optional;

/**
 * The outcome of {@link ToolCalls#resolve}: either this caller won the compare-and-set from pending, or the call was
 * stale (unknown, already resolved, or expired). Exactly one of any number of concurrent resolvers wins
 * (SPEC guarantee 10). A stale outcome is an expected result, not an error.
 */
public sealed interface Resolution permits Resolution.Resolved, Resolution.Stale {

  /** Whether this caller's resolve took effect. */
  boolean won();

  /** This caller resolved the call; {@code call} is the stored result. */
  record Resolved(ToolCall call) implements Resolution {
    @Override
    public boolean won() {
      return true;
    }
  }

  /**
   * The call was not pending: {@code current} is its stored state, or empty when the id is unknown.
   */
  record Stale(String toolCallId, Optional<ToolCall> current) implements Resolution {
    @Override
    public boolean won() {
      return false;
    }
  }
}
