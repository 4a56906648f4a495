package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import java.time.Instant;
import java.util.Objects;

/**
 * Registers a tool call, or replaces the descriptive fields (run, tool name, arguments) of a known one as a whole: a
 * write without a run or arguments clears them. A new call is
 * {@link ToolCallStatus#PENDING}; a write never changes the status, result or deadline of a stored call: those change
 * only through {@link ToolCalls#resolve}, the deadline methods and expiry.
 *
 * @param arguments JSON arguments, {@code {}} when omitted
 */
public record ToolCallWrite(String id, String sessionId, String runId, String toolName, Json arguments) {

  public ToolCallWrite {
    Arguments.requireKey("toolCall.id", id);
    Arguments.requireKey("toolCall.sessionId", sessionId);
    Arguments.optionalKey("toolCall.runId", runId);
    Arguments.requireKey("toolCall.toolName", toolName);
    arguments = arguments == null ? Json.emptyObject() : arguments;
  }

  public static ToolCallWrite of(String id, String sessionId, String toolName) {
    return new ToolCallWrite(id, sessionId, null, toolName, null);
  }

  public ToolCallWrite withRunId(String runId) {
    return new ToolCallWrite(id, sessionId, Objects.requireNonNull(runId, "runId"), toolName, arguments);
  }

  public ToolCallWrite withArguments(Json arguments) {
    return new ToolCallWrite(id, sessionId, runId, toolName, Objects.requireNonNull(arguments, "arguments"));
  }

  /**
   * The call that results from applying this write to {@code stored} ({@code null} when new) at {@code now}.
   *
   * @throws ConflictException if {@code stored} belongs to another session
   */
  public ToolCall applyTo(ToolCall stored, Instant now) {
    if (stored == null) {
      return new ToolCall(id, sessionId, runId, toolName, arguments, ToolCallStatus.PENDING, null, null, now, now);
    }
    if (!stored.sessionId().equals(sessionId)) {
      throw new ConflictException(
          "tool call " + id + " belongs to session " + stored.sessionId() + ", not " + sessionId);
    }
    return new ToolCall(id, sessionId, runId, toolName, arguments, stored.status(), stored.result(),
        stored.deadline(), stored.createdAt(), now);
  }
}
