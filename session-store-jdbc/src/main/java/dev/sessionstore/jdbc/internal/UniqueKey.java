package dev.sessionstore.jdbc.internal;

/** A unique key whose violation the store turns into its own error ({@link Dialect#uniqueKeyName}). */
enum UniqueKey {
  /** The primary key of the sessions table: a session id taken. */
  SESSION_ID,
  /** The unique session name. */
  SESSION_NAME
}
