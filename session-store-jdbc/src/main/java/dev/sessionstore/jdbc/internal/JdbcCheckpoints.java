package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.ImportOutcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Checkpoints as {@code bytea}: session-scoped ones in a table keyed by (session, name) that cascades with the
 * session, global ones in a table keyed by name. A put is one upsert.
 */
final class JdbcCheckpoints implements Checkpoints {

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final Dialect dialect;
  private final Sql sql;
  private final ImplicitSession implicitSession;
  private final String putExistingSession;
  private final WriteChain putSessionScoped;
  private final String deleteSessionScoped;
  private final String putGlobal;
  private final String importGlobal;

  JdbcCheckpoints(Database database, Tables tables, Clock clock, ImplicitSession implicitSession) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    this.dialect = database.dialect();
    this.sql = new Sql(dialect);
    this.implicitSession = implicitSession;
    String replace = "data = excluded.data, updated_at = excluded.updated_at";
    this.putExistingSession = "INSERT INTO " + tables.sessionCheckpoints()
        + " (session_id, name, data, updated_at) VALUES (?, ?, ?, ?)"
        + dialect.onConflictUpdate("session_id, name", replace);
    this.putSessionScoped = implicitSession.before(putExistingSession);
    this.deleteSessionScoped = "DELETE FROM " + tables.sessionCheckpoints() + " WHERE session_id = ? AND name = ?";
    this.putGlobal = "INSERT INTO " + tables.globalCheckpoints() + " (name, data, updated_at) VALUES (?, ?, ?)"
        + dialect.onConflictUpdate("name", replace);
    this.importGlobal = "INSERT INTO " + tables.globalCheckpoints() + " (name, data, updated_at) VALUES (?, ?, ?)"
        + dialect.onConflictIgnore("name");
  }

  @Override
  public Checkpoint put(CheckpointKey key, byte[] data) {
    Checkpoint checkpoint = new Checkpoint(key, data, clock.instant());
    Instant now = checkpoint.updatedAt();
    database.autoCommit("store checkpoint " + key.name(), connection -> key.isSessionScoped()
        ? putSessionScoped.update(connection, implicitSession.parameters(key.sessionId(), now),
            new Object[] {key.sessionId(), key.name(), data, now})
        : sql.update(connection, putGlobal, key.name(), data, now));
    return checkpoint;
  }

  /** Puts a checkpoint of a session that exists, in the caller's transaction, and returns it as stored. */
  Checkpoint put(Connection connection, String sessionId, String name, byte[] data, Instant now)
      throws SQLException {
    sql.update(connection, putExistingSession, sessionId, name, data, now);
    return new Checkpoint(CheckpointKey.of(sessionId, name), data, now);
  }

  /** Deletes a session's checkpoint in the caller's transaction. */
  void delete(Connection connection, String sessionId, String name) throws SQLException {
    sql.update(connection, deleteSessionScoped, sessionId, name);
  }

  /** The session's checkpoints by name, read in the caller's transaction. */
  List<Checkpoint> list(Connection connection, String sessionId) throws SQLException {
    return sql.list(connection, "SELECT name, data, updated_at FROM " + tables.sessionCheckpoints()
            + " WHERE session_id = ? ORDER BY name",
        row -> new Checkpoint(CheckpointKey.of(sessionId, row.getString("name")), row.getBytes("data"),
            dialect.readInstant(row, "updated_at")), sessionId);
  }

  /** Stores exported session checkpoints as they are, their times included, in the caller's transaction. */
  void insertAll(Connection connection, List<Checkpoint> exported) throws SQLException {
    if (!exported.isEmpty()) {
      sql.updateEach(connection, putExistingSession, exported.stream().map(checkpoint -> new Object[] {
          checkpoint.key().sessionId(), checkpoint.key().name(), checkpoint.data(), checkpoint.updatedAt()}).toList());
    }
  }

  /** Every global checkpoint, by name ({@code COLLATE "C"}: code point order). */
  List<Checkpoint> globals() {
    return database.read("list the global checkpoints", connection -> sql.list(connection,
        "SELECT name, data, updated_at FROM " + tables.globalCheckpoints() + " ORDER BY name",
        row -> new Checkpoint(CheckpointKey.global(row.getString("name")), row.getBytes("data"),
            dialect.readInstant(row, "updated_at"))));
  }

  /**
   * Stores an exported global checkpoint as it is unless its name holds one: {@link ImportOutcome#UNCHANGED} when
   * that one is equal, {@link ImportOutcome#CONFLICT} when not.
   */
  ImportOutcome importGlobal(Checkpoint checkpoint) {
    String name = checkpoint.key().name();
    return database.autoCommit("import global checkpoint " + name, connection -> {
      if (sql.update(connection, importGlobal, name, checkpoint.data(), checkpoint.updatedAt()) == 1) {
        return ImportOutcome.IMPORTED;
      }
      Optional<Checkpoint> stored = get(connection, checkpoint.key());
      return stored.isPresent() && stored.get().equals(checkpoint) ? ImportOutcome.UNCHANGED
          : ImportOutcome.CONFLICT;
    });
  }

  @Override
  public Optional<Checkpoint> get(CheckpointKey key) {
    return database.read("read checkpoint " + key.name(), connection -> get(connection, key));
  }

  private Optional<Checkpoint> get(Connection connection, CheckpointKey key) throws SQLException {
    return key.isSessionScoped()
        ? sql.first(connection, "SELECT data, updated_at FROM " + tables.sessionCheckpoints()
            + " WHERE session_id = ? AND name = ?",
            row -> new Checkpoint(key, row.getBytes("data"), dialect.readInstant(row, "updated_at")),
            key.sessionId(), key.name())
        : sql.first(connection, "SELECT data, updated_at FROM " + tables.globalCheckpoints() + " WHERE name = ?",
            row -> new Checkpoint(key, row.getBytes("data"), dialect.readInstant(row, "updated_at")), key.name());
  }

  @Override
  public boolean delete(CheckpointKey key) {
    return database.transaction("delete checkpoint " + key.name(), UnknownOutcome.ownResult(),
        connection -> (key.isSessionScoped()
        ? sql.update(connection, deleteSessionScoped, key.sessionId(), key.name())
        : sql.update(connection, "DELETE FROM " + tables.globalCheckpoints() + " WHERE name = ?", key.name())) > 0);
  }
}
