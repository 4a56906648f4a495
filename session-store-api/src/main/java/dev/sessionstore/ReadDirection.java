package dev.sessionstore;

/** Which end of the log a limited read takes its events from (<a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#rules-for-the-edge-cases">which end a limit takes</a>). */
public enum ReadDirection {

  /** The first N events after the lower bound, returned oldest-first. Next cursor: the last item's seq. */
  OLDEST_FIRST,

  /**
   * The last N events before the upper bound (the tail), returned oldest-first. Next cursor: the first item's seq,
   * to be passed as {@code before} for the page of older events.
   */
  TAIL,

  /** The last N events before the upper bound, returned newest-first. Next cursor: the last (oldest) item's seq. */
  NEWEST_FIRST
}
