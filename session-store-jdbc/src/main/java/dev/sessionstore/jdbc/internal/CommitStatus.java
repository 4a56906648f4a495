package dev.sessionstore.jdbc.internal;

/**
 * What became of a transaction whose {@code COMMIT} lost its connection, as the database tells it from another
 * connection ({@link Dialect#commitStatus}).
 */
enum CommitStatus {
  /** Committed: everything the transaction wrote is stored. */
  COMMITTED,
  /** Rolled back: nothing it wrote is stored. */
  ABORTED,
  /** Still running on its server process, which has not yet noticed that its client is gone: ask again later. */
  IN_PROGRESS,
  /** The database no longer knows (the id is too old). */
  FORGOTTEN
}
