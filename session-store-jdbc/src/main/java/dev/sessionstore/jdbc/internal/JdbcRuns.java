package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Runs;
import dev.sessionstore.spi.Upserts;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs on the runs table, keyed by (session, run id). A save reads the row under lock, merges with
 * {@link Upserts#run} and writes it back, creating the session when the run is new. The active run is the running or
 * waiting one updated last; {@code written_at} ({@link Dialect#writeOrder}) orders runs the store clock stamped
 * alike.
 */
final class JdbcRuns implements Runs {

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final ImplicitSession implicitSession;
  private final Sql sql;
  private final RowMapper<Run> runs;
  private final String selectForUpdate;
  private final WriteChain insert;
  private final String update;
  private final String insertExported;

  JdbcRuns(Database database, Tables tables, Clock clock, ImplicitSession implicitSession) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    this.implicitSession = implicitSession;
    Dialect dialect = database.dialect();
    this.sql = new Sql(dialect);
    this.runs = RunRows.mapper(dialect);
    this.selectForUpdate = "SELECT " + RunRows.COLUMNS + " FROM " + tables.runs()
        + " WHERE session_id = ? AND id = ?" + dialect.lockForUpdate();
    String json = dialect.jsonParameter();
    this.insert = implicitSession.before("INSERT INTO " + tables.runs()
        + " (id, session_id, status, usage, error, created_at, updated_at, written_at) VALUES (?, ?, ?, " + json
        + ", " + json + ", ?, ?, " + dialect.writeOrder(tables) + ")" + dialect.onConflictIgnore("session_id, id"));
    this.insertExported = "INSERT INTO " + tables.runs()
        + " (id, session_id, status, usage, error, created_at, updated_at, written_at) VALUES (?, ?, ?, " + json
        + ", " + json + ", ?, ?, " + dialect.writeOrder(tables) + ")";
    this.update = "UPDATE " + tables.runs() + " SET status = ?, usage = " + json + ", error = " + json
        + ", updated_at = ?, written_at = " + dialect.writeOrder(tables) + " WHERE session_id = ? AND id = ?";
  }

  @Override
  public Run save(RunWrite run) {
    return database.transaction("save run " + run.id() + " of session " + run.sessionId(),
        connection -> save(connection, run, clock.instant()));
  }

  /** Saves {@code write} in the caller's transaction. */
  Run save(Connection connection, RunWrite write, Instant now) throws SQLException {
    while (true) {
      Optional<Run> stored = sql.first(connection, selectForUpdate, runs, write.sessionId(), write.id());
      Run merged = Upserts.run(write, stored.orElse(null), now);
      if (stored.isPresent()) {
        sql.update(connection, update, RunRows.column(merged.status()), merged.usage(), merged.error(),
            merged.updatedAt(), merged.sessionId(), merged.id());
        return merged;
      }
      if (insert.update(connection, implicitSession.parameters(merged.sessionId(), now),
          new Object[] {merged.id(), merged.sessionId(), RunRows.column(merged.status()), merged.usage(),
              merged.error(), merged.createdAt(), merged.updatedAt()}) == 1) {
        return merged;
      }
      // Created by another transaction since our read: merge into that one instead.
    }
  }

  /**
   * Stores exported runs as they are, in the caller's transaction, in the order given: of runs updated at the same
   * instant, the one stored last is the active one.
   */
  void insertAll(Connection connection, List<Run> exported) throws SQLException {
    if (exported.isEmpty()) {
      return;
    }
    List<Object[]> rows = new ArrayList<>(exported.size());
    for (Run run : exported) {
      rows.add(new Object[] {run.id(), run.sessionId(), RunRows.column(run.status()), run.usage(), run.error(),
          run.createdAt(), run.updatedAt()});
    }
    sql.updateEach(connection, insertExported, rows);
  }

  @Override
  public Optional<Run> find(String sessionId, String runId) {
    return database.read("find run " + runId + " of session " + sessionId, connection -> sql.first(connection,
        "SELECT " + RunRows.COLUMNS + " FROM " + tables.runs() + " WHERE session_id = ? AND id = ?", runs, sessionId,
        runId));
  }

  @Override
  public List<Run> list(String sessionId) {
    return database.read("list the runs of session " + sessionId, connection -> list(connection, sessionId));
  }

  /** The session's runs in creation order (then by id), read in the caller's transaction. */
  List<Run> list(Connection connection, String sessionId) throws SQLException {
    return sql.list(connection,
        "SELECT " + RunRows.COLUMNS + " FROM " + tables.runs() + " WHERE session_id = ? ORDER BY created_at, id",
        runs, sessionId);
  }

  @Override
  public List<Run> list(String sessionId, RunStatus status) {
    return database.read("list the runs of session " + sessionId, connection -> sql.list(connection,
        "SELECT " + RunRows.COLUMNS + " FROM " + tables.runs()
            + " WHERE session_id = ? AND status = ? ORDER BY created_at, id",
        runs, sessionId, RunRows.column(status)));
  }

  @Override
  public Optional<Run> active(String sessionId) {
    return database.read("find the active run of session " + sessionId, connection -> sql.first(connection,
        "SELECT " + RunRows.COLUMNS + " FROM " + tables.runs() + " WHERE session_id = ?"
            + " AND status IN " + RunRows.ACTIVE_STATUSES
            + " ORDER BY updated_at DESC, written_at DESC LIMIT 1",
        runs, sessionId));
  }
}
