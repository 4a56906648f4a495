package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import java.time.Instant;

/**
 * A request waiting for a tool or a human, as stored. Immutable.
 *
 * @param id             tool call id, unique within its session (model-issued ids repeat across sessions and forks)
 * @param sessionId      session it belongs to
 * @param runId          run that made it, or {@code null}
 * @param requestEventId id of the session's event that requested it (the tool_use event), or {@code null}
 * @param toolName       name of the tool
 * @param arguments      JSON arguments
 * @param status         {@link ToolCallStatus#PENDING} until resolved or expired
 * @param result         the result of a resolved call ({@code {}} when resolved without one), {@code null} while
 *                       pending; an expired call's result says why
 * @param deadline       when a pending call expires, or {@code null} for none
 * @param createdAt      when the store first saved it
 * @param updatedAt      when the store last changed it
 */
public record ToolCall(
    String id,
    String sessionId,
    String runId,
    String requestEventId,
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
    Arguments.optionalKey("requestEventId", requestEventId);
    Arguments.requireKey("toolName", toolName);
    Arguments.requireNonNull("arguments", arguments);
    Arguments.requireNonNull("status", status);
    deadline = Arguments.optionalInstant("deadline", deadline);
    createdAt = Arguments.requireInstant("createdAt", createdAt);
    updatedAt = Arguments.requireInstant("updatedAt", updatedAt);
  }
}
