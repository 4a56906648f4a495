package dev.sessionstore;

import java.time.Instant;

/**
 * A request waiting for a tool or a human, as stored. Immutable.
 *
 * @param id             tool call id, unique within its session (model-issued ids repeat across sessions and forks)
 * @param sessionId      session it belongs to
 * @param runId          run that made it, or {@code null}
 * @param requestEventId id of the session's event that requested it (the tool_use event), or {@code null}: none was
 *                       named, or a cut of the log removed that event
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

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public ToolCall {
    Checks.requireKey("id", id);
    Checks.requireKey("sessionId", sessionId);
    Checks.optionalKey("runId", runId);
    Checks.optionalKey("requestEventId", requestEventId);
    Checks.requireKey("toolName", toolName);
    Checks.requireNonNull("arguments", arguments);
    Checks.requireNonNull("status", status);
    deadline = Checks.optionalInstant("deadline", deadline);
    createdAt = Checks.requireInstant("createdAt", createdAt);
    updatedAt = Checks.requireInstant("updatedAt", updatedAt);
  }
}
