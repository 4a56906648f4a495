package dev.sessionstore.jdbc.internal;

/**
 * Creates a session on the first write under its id, as an event store creates a stream: status active, empty
 * settings and metadata. An existing session is left alone.
 */
final class ImplicitSession {

  private final String insert;

  ImplicitSession(Tables tables, Dialect dialect) {
    this.insert = "INSERT INTO " + tables.sessions()
        + " (id, status, settings, metadata, created_at, updated_at) VALUES (?, 'active', '{}', '{}', ?, ?)"
        + dialect.onConflictIgnore("id");
  }

  /** The insert; parameters: session id, now, now. Affects one row if it created the session. */
  String insert() {
    return insert;
  }

  /**
   * A {@code WITH} clause creating the session ahead of the statement it prefixes, whose foreign key then finds it;
   * parameters: session id, now, now, before the statement's own.
   */
  String with() {
    return "WITH implicit_session AS (" + insert + ") ";
  }
}
