package dev.sessionstore;


/**
 * A resolution asked for inside a {@link Step}: resolve the session's pending call {@code toolCallId} to
 * {@code status} with {@code result}, as {@link ToolCalls#resolve} does.
 *
 * @param toolCallId the call, within the step's session
 * @param status     {@link ToolCallStatus#COMPLETED}, {@link ToolCallStatus#FAILED} or {@link ToolCallStatus#CANCELLED}
 * @param result     the result; {@code {}} when omitted
 */
public record ToolCallResolution(String toolCallId, ToolCallStatus status, Json result) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public ToolCallResolution {
    Checks.requireKey("resolution.toolCallId", toolCallId);
    Checks.requireResolvedStatus("resolution.status", status);
    result = result == null ? Json.emptyObject() : result;
  }
}
