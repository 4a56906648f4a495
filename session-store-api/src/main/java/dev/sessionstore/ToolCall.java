package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import java.time.Instant;

/**
 * A request waiting for a tool or a human, as stored. Immutable.
 *
 * @param id        tool call id, unique across the store
 * @param sessionId session it belongs to
 * @param runId     run that made it, or {@code null}
 * @param toolName  name of the tool
 * @param arguments JSON arguments
 * @param status    {@link ToolCallStatus#PENDING} until resolved or expired
 * @param result    the result of a resolved call ({@code {}} when resolved without one), {@code null} while pending;
 *                  an expired call's result says why
 * @param deadline  when a pending call expires, or {@code null} for none
 * @param createdAt when the store first saved it
 * @param updatedAt when the store last changed it
 */
public record ToolCall(
    String id,
    String sessionId,
    String runId,
    String toolName,
    Json arguments,
    ToolCallStatus status,
    Json result,
    Instant deadline,
    Instant createdAt,
    Instant updatedAt) {

  public ToolCall {
    Arguments.requireKey("id", id);
    Arguments.requireKey("sessionId", sessionId);
    Arguments.optionalKey("runId", runId);
    Arguments.requireKey("toolName", toolName);
    Arguments.requireNonNull("arguments", arguments);
    Arguments.requireNonNull("status", status);
    deadline = Arguments.optionalInstant("deadline", deadline);
    createdAt = Arguments.requireInstant("createdAt", createdAt);
    updatedAt = Arguments.requireInstant("updatedAt", updatedAt);
  }

  /** This call resolved to {@code status} with {@code result} at {@code now}; the deadline is cleared. */
  public ToolCall resolvedAs(ToolCallStatus status, Json result, Instant now) {
    return new ToolCall(id, sessionId, runId, toolName, arguments, status, result, null, createdAt, now);
  }

  /** This call with its deadline set to {@code deadline} ({@code null} clears it) at {@code now}. */
  public ToolCall withDeadline(Instant deadline, Instant now) {
    return new ToolCall(id, sessionId, runId, toolName, arguments, status, result, deadline, createdAt, now);
  }
}
