package dev.sessionstore;

/** The lifecycle of a run. A session's active run is its {@link #RUNNING} one. */
public enum RunStatus {
  PENDING,
  RUNNING,
  COMPLETED,
  FAILED,
  CANCELLED
}
