package dev.sessionstore;

import java.time.Instant;
import java.util.Optional;

/**
 * A deadline set or cancelled inside a {@link Step}, as {@link ToolCalls#expireAt} and
 * {@link ToolCalls#cancelDeadline} do: on a pending call, setting replaces any earlier deadline and cancelling removes
 * it; on a call that is no longer pending it changes nothing. The call must exist (registered earlier or by the same
 * step).
 *
 * @param toolCallId the call, within the step's session
 * @param deadline   the new absolute deadline, or {@code null} to cancel the call's deadline
 */
public record DeadlineChange(String toolCallId, Instant deadline) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public DeadlineChange {
    Checks.requireKey("deadline.toolCallId", toolCallId);
    deadline = Checks.optionalInstant("deadline.deadline", deadline);
  }

  /** Sets the deadline of {@code toolCallId} to {@code deadline}. */
  public static DeadlineChange set(String toolCallId, Instant deadline) {
    return new DeadlineChange(toolCallId, Checks.requireNonNull("deadline.deadline", deadline));
  }

  /** Removes the deadline of {@code toolCallId}. */
  public static DeadlineChange cancel(String toolCallId) {
    return new DeadlineChange(toolCallId, null);
  }

  /** The deadline to set, or empty when this change cancels it. */
  public Optional<Instant> newDeadline() {
    return Optional.ofNullable(deadline);
  }
}
