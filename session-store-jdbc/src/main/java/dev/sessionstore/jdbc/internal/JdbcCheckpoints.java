package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.spi.Arguments;
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
  private final String putSessionScoped;
  private final String putGlobal;

  JdbcCheckpoints(Database database, Tables tables, Clock clock, ImplicitSession implicitSession) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    Dialect dialect = database.dialect();
    String replace = "data = excluded.data, updated_at = excluded.updated_at";
    this.putSessionScoped = implicitSession.with() + "INSERT INTO " + tables.sessionCheckpoints()
        + " (session_id, name, data, updated_at) VALUES (?, ?, ?, ?)"
        + dialect.onConflictUpdate("session_id, name", replace);
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
        ? Sql.update(connection, "DELETE FROM " + tables.sessionCheckpoints()
            + " WHERE session_id = ? AND name = ?", key.sessionId(), key.name())
        : Sql.update(connection, "DELETE FROM " + tables.globalCheckpoints() + " WHERE name = ?", key.name())) > 0);
  }
}
