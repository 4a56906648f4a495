package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.spi.Arguments;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Checkpoints as {@code bytea}: session-scoped ones in a table keyed by (session, name) that cascades with the
 * session, global ones in a table keyed by name. A put is one upsert.
 */
final class JdbcCheckpoints implements Checkpoints {

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final String putExistingSession;
  private final String putSessionScoped;
  private final String deleteSessionScoped;
  private final String putGlobal;

  JdbcCheckpoints(Database database, Tables tables, Clock clock, ImplicitSession implicitSession) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    Dialect dialect = database.dialect();
    String replace = "data = excluded.data, updated_at = excluded.updated_at";
    this.putExistingSession = "INSERT INTO " + tables.sessionCheckpoints()
        + " (session_id, name, data, updated_at) VALUES (?, ?, ?, ?)"
        + dialect.onConflictUpdate("session_id, name", replace);
    this.putSessionScoped = implicitSession.with() + putExistingSession;
    this.deleteSessionScoped = "DELETE FROM " + tables.sessionCheckpoints() + " WHERE session_id = ? AND name = ?";
    this.putGlobal = "INSERT INTO " + tables.globalCheckpoints() + " (name, data, updated_at) VALUES (?, ?, ?)"
        + dialect.onConflictUpdate("name", replace);
  }

  @Override
  public Checkpoint put(CheckpointKey key, byte[] data) {
    Arguments.requireNonNull("key", key);
    Arguments.requireNonNull("data", data);
    if (data.length > Limits.MAX_CHECKPOINT_BYTES) {
      throw new InvalidArgumentException("data",
          "larger than " + Limits.MAX_CHECKPOINT_BYTES + " bytes (" + data.length + ")");
    }
    Checkpoint checkpoint = new Checkpoint(key, data, clock.instant());
    Instant now = checkpoint.updatedAt();
    database.autoCommit("store checkpoint " + key.name(), connection -> key.isSessionScoped()
        ? Sql.update(connection, putSessionScoped, key.sessionId(), now, now, key.sessionId(), key.name(), data, now)
        : Sql.update(connection, putGlobal, key.name(), data, now));
    return checkpoint;
  }

  /** Puts a checkpoint of a session that exists, in the caller's transaction, and returns it as stored. */
  Checkpoint put(Connection connection, String sessionId, String name, byte[] data, Instant now)
      throws SQLException {
    Sql.update(connection, putExistingSession, sessionId, name, data, now);
    return new Checkpoint(CheckpointKey.of(sessionId, name), data, now);
  }

  /** Deletes a session's checkpoint in the caller's transaction. */
  void delete(Connection connection, String sessionId, String name) throws SQLException {
    Sql.update(connection, deleteSessionScoped, sessionId, name);
  }

  @Override
  public Optional<Checkpoint> get(CheckpointKey key) {
    Arguments.requireNonNull("key", key);
    return database.read("read checkpoint " + key.name(), connection -> key.isSessionScoped()
        ? Sql.first(connection, "SELECT data, updated_at FROM " + tables.sessionCheckpoints()
            + " WHERE session_id = ? AND name = ?",
            row -> new Checkpoint(key, row.getBytes("data"), Sql.instant(row, "updated_at")),
            key.sessionId(), key.name())
        : Sql.first(connection, "SELECT data, updated_at FROM " + tables.globalCheckpoints() + " WHERE name = ?",
            row -> new Checkpoint(key, row.getBytes("data"), Sql.instant(row, "updated_at")), key.name()));
  }

  @Override
  public boolean delete(CheckpointKey key) {
    Arguments.requireNonNull("key", key);
    return database.autoCommit("delete checkpoint " + key.name(), connection -> (key.isSessionScoped()
        ? Sql.update(connection, deleteSessionScoped, key.sessionId(), key.name())
        : Sql.update(connection, "DELETE FROM " + tables.globalCheckpoints() + " WHERE name = ?", key.name())) > 0);
  }
}
