package dev.sessionstore.jdbc.internal;

import dev.sessionstore.FencedWriterException;
import dev.sessionstore.WriterClaim;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Writer fencing on the writer-claims table: one row per session id ever claimed, holding the current token and
 * owner, kept when the session is deleted. A claim is one upsert that moves the token forward and returns it, under
 * the row's lock. A fenced step {@linkplain #check checks} its token in its own transaction after it has locked its
 * session's row, reading the claim row with a share lock ({@link Dialect#lockForShare()}): a claim made meanwhile
 * waits until the step commits, and a step checked after the claim committed sees the new token. On SQLite both hold
 * the database's write lock, which serializes them just the same.
 */
final class WriterFences {

  private final Database database;
  private final Sql sql;
  private final String claim;
  private final String select;
  private final String selectForCheck;

  WriterFences(Database database, Tables tables) {
    this.database = database;
    Dialect dialect = database.dialect();
    this.sql = new Sql(dialect);
    this.claim = "INSERT INTO " + tables.writerClaims() + " AS c (session_id, token, owner_id) VALUES (?, 1, ?)"
        + dialect.onConflictUpdate("session_id", "token = c.token + 1, owner_id = excluded.owner_id")
        + " RETURNING token";
    this.select = "SELECT token, owner_id FROM " + tables.writerClaims() + " WHERE session_id = ?";
    this.selectForCheck = select + dialect.lockForShare();
  }

  WriterClaim claim(String sessionId, String ownerId) {
    long token = database.transaction("claim session " + sessionId + " for " + ownerId, connection ->
        sql.first(connection, claim, row -> row.getLong(1), sessionId, ownerId).orElseThrow());
    return new WriterClaim(sessionId, ownerId, token);
  }

  Optional<WriterClaim> currentClaim(String sessionId) {
    return database.read("read the claim of session " + sessionId, connection -> sql.first(connection, select,
        row -> new WriterClaim(sessionId, row.getString(2), row.getLong(1)), sessionId));
  }

  /**
   * Fails unless {@code fence} is empty or the session's current token, holding the claim row's share lock until the
   * caller's transaction ends. The caller has locked the session's row (or found it absent).
   *
   * @throws FencedWriterException naming the current claim
   */
  void check(Connection connection, String sessionId, OptionalLong fence) throws SQLException {
    if (fence.isEmpty()) {
      return;
    }
    Optional<WriterClaim> current = sql.first(connection, selectForCheck,
        row -> new WriterClaim(sessionId, row.getString(2), row.getLong(1)), sessionId);
    if (current.isEmpty() || current.get().token() != fence.getAsLong()) {
      throw new FencedWriterException(sessionId, fence.getAsLong(), current.map(WriterClaim::token).orElse(0L),
          current.map(WriterClaim::ownerId).orElse(null));
    }
  }
}
