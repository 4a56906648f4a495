package dev.sessionstore.jdbc.internal;

import dev.sessionstore.ModelCall;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.spi.Timeouts;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The model-call audit on the model_calls table, keyed by (session, turn); recording a turn again replaces it.
 * While disabled nothing is recorded or listed, but removal by age still clears rows recorded while enabled.
 */
final class JdbcModelCallAudit implements ModelCallAudit {

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final boolean enabled;
  private final ImplicitSession implicitSession;
  private final Sql sql;
  private final RowMapper<ModelCall> calls;
  private final WriteChain record;
  private final String insert;
  private final String upsert;

  JdbcModelCallAudit(Database database, Tables tables, Clock clock, boolean enabled,
      ImplicitSession implicitSession) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    this.enabled = enabled;
    this.implicitSession = implicitSession;
    Dialect dialect = database.dialect();
    this.sql = new Sql(dialect);
    this.calls = row -> new ModelCall(row.getString("session_id"), row.getLong("turn"), row.getString("model"),
        dialect.readJson(row, "context"), dialect.readJson(row, "usage"), dialect.readInstant(row, "recorded_at"));
    String json = dialect.jsonParameter();
    this.insert = "INSERT INTO " + tables.modelCalls()
        + " (session_id, turn, model, context, usage, recorded_at) VALUES (?, ?, ?, " + json + ", " + json + ", ?)";
    this.upsert = insert + dialect.onConflictUpdate("session_id, turn", "model = excluded.model,"
        + " context = excluded.context, usage = excluded.usage, recorded_at = excluded.recorded_at");
    this.record = implicitSession.before(upsert);
  }

  @Override
  public boolean enabled() {
    return enabled;
  }

  @Override
  public boolean record(String sessionId, NewModelCall call) {
    if (!enabled) {
      return false;
    }
    Instant now = clock.instant();
    database.autoCommit("record a model call of session " + sessionId, connection -> record.update(connection,
        implicitSession.parameters(sessionId, now),
        new Object[] {sessionId, call.turn(), call.model(), call.context(), call.usage(), now}));
    return true;
  }

  /**
   * Records {@code call} for a session whose row this transaction holds, as recorded at {@code now}, and returns the
   * row; empty, storing nothing, while the audit is off.
   */
  Optional<ModelCall> store(Connection connection, String sessionId, NewModelCall call, Instant now)
      throws SQLException {
    if (!enabled) {
      return Optional.empty();
    }
    return sql.first(connection, upsert + " RETURNING session_id, turn, model, context, usage, recorded_at", calls,
        sessionId, call.turn(), call.model(), call.context(), call.usage(), now);
  }

  @Override
  public List<ModelCall> list(String sessionId) {
    if (!enabled) {
      return List.of();
    }
    return database.read("list the model calls of session " + sessionId, connection -> list(connection, sessionId));
  }

  /** The session's rows ordered by turn, read in the caller's transaction, whether or not the audit is on. */
  List<ModelCall> list(Connection connection, String sessionId) throws SQLException {
    return sql.list(connection, "SELECT session_id, turn, model, context, usage, recorded_at FROM "
        + tables.modelCalls() + " WHERE session_id = ? ORDER BY turn", calls, sessionId);
  }

  /** Stores exported rows as they are, in the caller's transaction. */
  void insertAll(Connection connection, List<ModelCall> rows) throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    List<Object[]> parameters = new ArrayList<>(rows.size());
    for (ModelCall row : rows) {
      parameters.add(new Object[] {row.sessionId(), row.turn(), row.model(), row.context(), row.usage(),
          row.recordedAt()});
    }
    sql.updateEach(connection, insert, parameters);
  }

  @Override
  public int deleteOlderThan(String sessionId, Duration age) {
    return cutoff(age).map(cutoff -> database.transaction("remove old model calls of session " + sessionId,
        UnknownOutcome.ownResult(), connection -> sql.update(connection, "DELETE FROM " + tables.modelCalls()
            + " WHERE session_id = ? AND recorded_at < ?", sessionId, cutoff))).orElse(0);
  }

  @Override
  public int deleteOlderThan(Duration age) {
    return cutoff(age).map(cutoff -> database.transaction("remove old model calls", UnknownOutcome.ownResult(),
        connection -> sql.update(connection, "DELETE FROM " + tables.modelCalls() + " WHERE recorded_at < ?",
            cutoff))).orElse(0);
  }

  /**
   * The instant rows must be older than ({@link Timeouts#cutoff}), or empty when it is before anything a timestamp
   * column stores, so that no row is older.
   */
  private Optional<Instant> cutoff(Duration age) {
    Instant cutoff = Timeouts.cutoff(clock.instant(), age);
    return database.dialect().isStorable(cutoff) ? Optional.of(cutoff) : Optional.empty();
  }
}
