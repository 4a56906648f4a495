package dev.sessionstore;

import java.time.Instant;

/**
 * Registers a tool call, keyed by session id and call id, or replaces the descriptive fields (run, requesting event,
 * tool name, arguments) of a known one as a whole: a write without a run, requesting event or arguments clears them.
 *
 * <p>A new call is {@link ToolCallStatus#PENDING}, with {@link #deadline()} as its deadline when one is given. A
 * write never changes the status, result or deadline of a stored call (its {@code deadline} is then ignored): those
 * change only through resolution, the deadline operations and expiry. So registering the same write twice, as a
 * retried {@link Step} does, leaves one call in the state the first registration and what followed gave it.
 *
 * <p>Immutable; each {@code with...} returns a copy and rejects {@code null} with {@link InvalidArgumentException}.
 *
 * @param requestEventId id of the session's event that requested the call (the tool_use event), or {@code null}; when
 *                       given, the session's log (or the same step's events) must hold it
 * @param arguments      JSON arguments, {@code {}} when omitted
 * @param deadline       when the new call expires if still pending, or {@code null} for no deadline
 */
public record ToolCallWrite(
    String id,
    String sessionId,
    String runId,
    String requestEventId,
    String toolName,
    Json arguments,
    Instant deadline) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public ToolCallWrite {
    Checks.requireKey("toolCall.id", id);
    Checks.requireKey("toolCall.sessionId", sessionId);
    Checks.optionalKey("toolCall.runId", runId);
    Checks.optionalKey("toolCall.requestEventId", requestEventId);
    Checks.requireKey("toolCall.toolName", toolName);
    arguments = arguments == null ? Json.emptyObject() : arguments;
    deadline = Checks.optionalInstant("toolCall.deadline", deadline);
  }

  /** A pending call {@code id} of {@code sessionId} for {@code toolName}, with no arguments and no deadline. */
  public static ToolCallWrite of(String id, String sessionId, String toolName) {
    return new ToolCallWrite(id, sessionId, null, null, toolName, null, null);
  }

  /**
   * A copy that ties the call to the run {@code runId}.
   * @throws InvalidArgumentException naming {@code toolCall.runId} if it is not a valid key
   */
  public ToolCallWrite withRunId(String runId) {
    return new ToolCallWrite(id, sessionId, Checks.requireKey("toolCall.runId", runId), requestEventId, toolName,
        arguments, deadline);
  }

  /** This write naming {@code eventId}, the session's tool_use event, as the event that requested the call. */
  public ToolCallWrite withRequestEventId(String eventId) {
    return new ToolCallWrite(id, sessionId, runId, Checks.requireKey("toolCall.requestEventId", eventId), toolName,
        arguments, deadline);
  }

  /**
   * A copy with the tool's arguments.
   * @throws InvalidArgumentException naming {@code toolCall.arguments} if it is null
   */
  public ToolCallWrite withArguments(Json arguments) {
    return new ToolCallWrite(id, sessionId, runId, requestEventId, toolName,
        Checks.requireNonNull("toolCall.arguments", arguments), deadline);
  }

  /**
   * This write registering the call with an absolute deadline (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#10">10</a>): the store expires
   * the call when its clock reaches {@code deadline} while it is still pending. Ignored when the call is already
   * stored.
   */
  public ToolCallWrite withDeadline(Instant deadline) {
    return new ToolCallWrite(id, sessionId, runId, requestEventId, toolName, arguments,
        Checks.requireNonNull("toolCall.deadline", deadline));
  }
}
