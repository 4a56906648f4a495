package dev.sessionstore;

/** The lifecycle of a tool call: {@link #PENDING}, then exactly one terminal status. */
public enum ToolCallStatus {
  PENDING,
  COMPLETED,
  FAILED,
  /** Resolved by the store because its deadline passed while it was pending. */
  EXPIRED,
  CANCELLED;

  /** Whether this status ends the call. */
  public boolean isTerminal() {
    return this != PENDING;
  }
}
