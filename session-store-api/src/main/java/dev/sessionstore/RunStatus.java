package dev.sessionstore;

/**
 * The lifecycle of a run. A run is <em>active</em> while it is {@link #RUNNING} or {@link #WAITING}; a session's
 * active run is what {@link Runs#active} returns.
 */
public enum RunStatus {
  /** Created, not started yet. */
  PENDING,
  /** Executing: calling the model or running tools. */
  RUNNING,
  /** Paused for input (a human approval, an external tool), possibly for hours; still the session's active run. */
  WAITING,
  /** Ended successfully; no longer active. */
  COMPLETED,
  /** Ended with an error (see {@link Run#error()}); no longer active. */
  FAILED,
  /** Stopped before it ended, by a caller; no longer active. */
  CANCELLED;

  /** Whether a run with this status is active: {@link #RUNNING} or {@link #WAITING}. */
  public boolean isActive() {
    return this == RUNNING || this == WAITING;
  }

  /** Whether this status ends the run: {@link #COMPLETED}, {@link #FAILED} or {@link #CANCELLED}. */
  public boolean isTerminal() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }
}
