package dev.sessionstore.cli;

/**
 * How a followed session's history changed under {@code events --follow}, so that what was printed is no longer a
 * prefix of what the store holds.
 *
 * @param kind   what happened
 * @param notice the one line that says so, without the {@code session-store: } prefix
 */
record HistoryChange(Kind kind, String notice) {

  /** What happened to the followed session. */
  enum Kind {
    /** The session no longer exists. */
    DELETED,
    /** The session was deleted and created again: its creation time differs. */
    REPLACED,
    /** The log was cut: its last seq went back, or an event printed last is no longer at its seq. */
    TRUNCATED
  }
}
