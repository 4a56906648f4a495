package dev.sessionstore.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * Creates a session on the first write under its id, as an event store creates a stream: status active, empty
 * settings and metadata. An existing session is left alone.
 */
final class ImplicitSession {

  private final Dialect dialect;
  private final Sql sql;
  private final String insert;

  ImplicitSession(Tables tables, Dialect dialect) {
    this.dialect = dialect;
    this.sql = new Sql(dialect);
    this.insert = "INSERT INTO " + tables.sessions()
        + " (id, status, settings, metadata, created_at, updated_at) VALUES (?, 'active', '{}', '{}', ?, ?)"
        + dialect.onConflictIgnore("id");
  }

  /** Creates the session if unknown, in the caller's transaction; returns whether it did. */
  boolean create(Connection connection, String sessionId, Instant now) throws SQLException {
    return sql.update(connection, insert, parameters(sessionId, now)) == 1;
  }

  /**
   * {@code write}, a write into a table that references the session, preceded by creating the session; the
   * chain's first parameter array is {@link #parameters}.
   */
  WriteChain before(String write) {
    return WriteChain.before(dialect, List.of(insert), write);
  }

  /** The parameters of creating the session. */
  Object[] parameters(String sessionId, Instant now) {
    return new Object[] {sessionId, now, now};
  }
}
