package dev.sessionstore;

/** The lifecycle of a tool call: {@link #PENDING}, then exactly one terminal status. */
public enum ToolCallStatus {
  /** Registered and not resolved yet: the only status a resolution can leave. */
  PENDING,
  /** Resolved with the tool's result. */
  COMPLETED,
  /** Resolved as failed by the caller; the result may carry the error. */
  FAILED,
  /** Resolved by the store because its deadline passed while it was pending. */
  EXPIRED,
  /** Resolved as cancelled by the caller: the tool will not run or its result is not wanted. */
  CANCELLED;

  /** Whether this status ends the call. */
  public boolean isTerminal() {
    return this != PENDING;
  }
}
