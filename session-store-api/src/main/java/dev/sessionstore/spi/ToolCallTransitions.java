package dev.sessionstore.spi;

import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * How a stored tool call changes state, identical in every adapter (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#10">10</a>): resolution as
 * a compare-and-set from pending with its replay rule, expiry, and deadline changes. Each method returns the call as it
 * is to be stored; none writes anything.
 */
public final class ToolCallTransitions {

  private ToolCallTransitions() {
  }

  /**
   * The outcome of resolving {@code current} (the session's call as it stands, {@code null} when unknown) to
   * {@code status} with {@code result}, when that outcome is not a transition: {@link Resolution.Replayed} if the
   * call is already stored with exactly this status and result, {@link Resolution.Stale} if it is unknown or holds
   * anything else. Empty when the call is pending, so the caller resolves it ({@link #resolved}).
   *
   * @param result the result asked for, {@code {}} when the caller gave none
   */
  public static Optional<Resolution> settled(String toolCallId, ToolCall current, ToolCallStatus status,
      Json result) {
    if (current == null) {
      return Optional.of(new Resolution.Stale(toolCallId, Optional.empty()));
    }
    if (current.status() == ToolCallStatus.PENDING) {
      return Optional.empty();
    }
    if (current.status() == status && result.equals(current.result())) {
      return Optional.of(new Resolution.Replayed(current));
    }
    return Optional.of(new Resolution.Stale(toolCallId, Optional.of(current)));
  }

  /** {@code call} resolved to {@code status} with {@code result} at {@code now}; its deadline is cleared. */
  public static ToolCall resolved(ToolCall call, ToolCallStatus status, Json result, Instant now) {
    return new ToolCall(call.id(), call.sessionId(), call.runId(), call.requestEventId(), call.toolName(),
        call.arguments(), status, result, null, call.createdAt(), now);
  }

  /** Whether {@code call} is pending with a deadline the clock has reached at {@code now}. */
  public static boolean isDue(ToolCall call, Instant now) {
    return call.status() == ToolCallStatus.PENDING && call.deadline() != null && !call.deadline().isAfter(now);
  }

  /** {@code call} expired at {@code now}: status expired, the {@link Expiry#result} of its deadline. */
  public static ToolCall expired(ToolCall call, Instant now) {
    return resolved(call, ToolCallStatus.EXPIRED, Expiry.result(call.deadline()), now);
  }

  /**
   * {@code call} without its requesting event, every other field as it was: what a cut of the log leaves of a call
   * whose requesting event the cut removed, so that no stored call names an event its log does not hold.
   */
  public static ToolCall withoutRequestEvent(ToolCall call) {
    return new ToolCall(call.id(), call.sessionId(), call.runId(), null, call.toolName(), call.arguments(),
        call.status(), call.result(), call.deadline(), call.createdAt(), call.updatedAt());
  }

  /**
   * {@code call} with its deadline set to {@code deadline} ({@code null} removes it) at {@code now}. Only a pending
   * call's deadline changes; the caller checks that first.
   */
  public static ToolCall withDeadline(ToolCall call, Instant deadline, Instant now) {
    return new ToolCall(call.id(), call.sessionId(), call.runId(), call.requestEventId(), call.toolName(),
        call.arguments(), call.status(), call.result(), deadline, call.createdAt(), now);
  }
}
