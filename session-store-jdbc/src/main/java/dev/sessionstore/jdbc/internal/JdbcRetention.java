package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Retention;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.spi.RetentionRules;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * Retention of a JDBC store. Candidates are found by index without locks, a batch at a time in id order; then each
 * session is judged again and changed in a transaction of its own, under the locks of a deletion or truncation: its
 * row and the rows of every session sharing its events ({@link Dependents}), so forks keep what they show (the rows
 * they share are copied into them first, as a deletion or truncation does). A cut deletes the session's own rows
 * through the cut, drops or shortens its segments below it, and records the cut in {@code cut_seq}, which reads,
 * forks and the next cut start after. A dry run counts the same candidates with the same rules, in reads only.
 *
 * <p>A background sweep ({@link #sweep}) is the same pass, except that it never waits for a session another
 * transaction holds: it locks with {@code SKIP LOCKED} ({@link Dependents#tryLockTogether}) and leaves a busy
 * session to the next sweep, so any number of store instances sweep one database, each session handled by
 * whichever comes first, and a sweep never queues behind (or deadlocks with) the application's writes. On SQLite a
 * writing transaction holds the whole file, so sweeps of several processes simply serialize.
 */
final class JdbcRetention implements Retention {

  private static final int BATCH_SIZE = 100;

  private enum Mode { DRY_RUN, APPLY, SWEEP }

  private final Database database;
  private final Dialect dialect;
  private final Tables tables;
  private final Sql sql;
  private final Clock clock;
  private final JdbcSessions sessions;
  private final boolean auditEnabled;

  JdbcRetention(Database database, Tables tables, Clock clock, JdbcSessions sessions, boolean auditEnabled) {
    this.database = database;
    this.dialect = database.dialect();
    this.tables = tables;
    this.sql = new Sql(dialect);
    this.clock = clock;
    this.sessions = sessions;
    this.auditEnabled = auditEnabled;
  }

  @Override
  public RetentionReport apply(RetentionPolicy policy) {
    return run(policy, Mode.APPLY);
  }

  @Override
  public RetentionReport dryRun(RetentionPolicy policy) {
    return run(policy, Mode.DRY_RUN);
  }

  /** Applies {@code policy} as a background sweep: sessions another transaction holds are left to the next one. */
  RetentionReport sweep(RetentionPolicy policy) {
    return run(policy, Mode.SWEEP);
  }

  private RetentionReport run(RetentionPolicy policy, Mode mode) {
    Instant now = clock.instant();
    Optional<Instant> idleCutoff = policy.idleSessionAge().flatMap(age -> cutoff(now, age));
    Optional<Instant> auditCutoff = auditEnabled ? policy.modelCallAge().flatMap(age -> cutoff(now, age))
        : Optional.empty();
    long deleted = idleCutoff.isPresent() ? deleteIdle(policy, idleCutoff.get(), mode) : 0;
    long cut = policy.maxEventsPerSession().isPresent()
        ? cutChapters(policy, idleCutoff, policy.maxEventsPerSession().getAsInt(), mode) : 0;
    long rows = auditCutoff.isPresent() ? removeAudit(policy, idleCutoff, auditCutoff.get(), mode) : 0;
    return new RetentionReport(mode == Mode.DRY_RUN, deleted, cut, rows);
  }

  /** The instant {@code age} before {@code now}, or empty when no stored time can be before it. */
  private Optional<Instant> cutoff(Instant now, Duration age) {
    Instant cutoff = RetentionRules.cutoff(now, age);
    return cutoff.isAfter(dialect.earliestStorable()) ? Optional.of(cutoff) : Optional.empty();
  }

  /**
   * The SQL twin of {@link RetentionRules#isIdle} over the sessions row {@code s}: in the rule's scope, written
   * before the cutoff, and its last event (if the session holds it as its own row) stamped before it.
   */
  private String idle(RetentionPolicy policy) {
    return "(s.updated_at < ?" + (policy.idleStatuses().isEmpty() ? "" : " AND " + dialect.isAnyOf("s.status"))
        + (policy.idleTenant().isEmpty() ? "" : " AND s.tenant IS NOT NULL AND s.tenant = ?")
        + " AND NOT EXISTS (SELECT 1 FROM " + tables.events() + " e WHERE e.session_id = s.id"
        + " AND e.seq = s.last_seq AND e.ts >= ?))";
  }

  /** The parameters of {@link #idle}. */
  private List<Object> idleParameters(Connection connection, RetentionPolicy policy, Instant cutoff)
      throws SQLException {
    List<Object> parameters = new ArrayList<>();
    parameters.add(cutoff);
    if (!policy.idleStatuses().isEmpty()) {
      parameters.add(dialect.textList(connection,
          policy.idleStatuses().stream().map(SessionStatus::value).sorted().toList()));
    }
    policy.idleTenant().ifPresent(parameters::add);
    parameters.add(cutoff);
    return parameters;
  }

  private long deleteIdle(RetentionPolicy policy, Instant cutoff, Mode mode) {
    String from = " FROM " + tables.sessions() + " s WHERE " + idle(policy);
    if (mode == Mode.DRY_RUN) {
      return database.read("count idle sessions", connection -> sql.first(connection, "SELECT count(*)" + from,
          row -> row.getLong(1), idleParameters(connection, policy, cutoff).toArray()).orElse(0L));
    }
    String recheck = "SELECT 1" + from + " AND s.id = ?";
    long deleted = 0;
    for (List<String> batch : batches("SELECT s.id" + from, connection -> idleParameters(connection, policy,
        cutoff))) {
      for (String sessionId : batch) {
        deleted += database.transaction("delete idle session " + sessionId, connection -> {
          List<String> locked = lock(connection, sessionId, mode);
          List<Object> parameters = idleParameters(connection, policy, cutoff);
          parameters.add(sessionId);
          return locked.isEmpty() || sql.first(connection, recheck, row -> true, parameters.toArray()).isEmpty()
              ? 0 : sessions.deleteLocked(connection, locked);
        });
      }
    }
    return deleted;
  }

  private long cutChapters(RetentionPolicy policy, Optional<Instant> idleCutoff, int max, Mode mode) {
    String candidates = "SELECT s.id FROM " + tables.sessions() + " s WHERE s.last_seq - s.cut_seq > ?"
        + " AND EXISTS (SELECT 1 FROM " + tables.summaries() + " m WHERE m.session_id = s.id"
        + " AND m.to_seq > s.cut_seq AND m.to_seq <= s.last_seq)"
        + (idleCutoff.isPresent() ? " AND NOT " + idle(policy) : "");
    long cut = 0;
    for (List<String> batch : batches(candidates, connection -> {
      List<Object> parameters = new ArrayList<>(List.of(max));
      if (idleCutoff.isPresent()) {
        parameters.addAll(idleParameters(connection, policy, idleCutoff.get()));
      }
      return parameters;
    })) {
      for (String sessionId : batch) {
        cut += mode == Mode.DRY_RUN
            ? database.read("count the chapters to cut of " + sessionId,
                connection -> cutOf(connection, sessionId, max).removed())
            : database.transaction("cut old chapters of " + sessionId, connection ->
                lock(connection, sessionId, mode).isEmpty() ? 0 : cut(connection, sessionId, max));
      }
    }
    return cut;
  }

  /** Where the events-per-session rule cuts the session's log, as stored now. */
  private record Cut(long cutSeq, long through) {
    long removed() {
      return Math.max(through - cutSeq, 0);
    }
  }

  private Cut cutOf(Connection connection, String sessionId, int max) throws SQLException {
    Optional<long[]> head = sql.first(connection, "SELECT cut_seq, last_seq FROM " + tables.sessions()
        + " WHERE id = ?", row -> new long[] {row.getLong(1), row.getLong(2)}, sessionId);
    if (head.isEmpty()) {
      return new Cut(0, 0);
    }
    long cutSeq = head.get()[0];
    List<Long> ends = sql.list(connection, "SELECT to_seq FROM " + tables.summaries()
        + " WHERE session_id = ? AND to_seq > ?", row -> row.getLong(1), sessionId, cutSeq);
    return new Cut(cutSeq, RetentionRules.cutThrough(cutSeq + 1, head.get()[1], ends, max));
  }

  /**
   * Cuts the session's log through where the rule says, in this transaction, which holds the locks of the session
   * and of every session sharing its events; returns how many events the session's log lost.
   */
  private long cut(Connection connection, String sessionId, int max) throws SQLException {
    Cut cut = cutOf(connection, sessionId, max);
    if (cut.removed() == 0) {
      return 0;
    }
    long through = cut.through();
    sessions.dependents().keepWhole(connection, List.of(sessionId), 1);
    // a tool call requested by an event the cut removes keeps no link to it, as after a truncation
    sql.update(connection, "UPDATE " + tables.toolCalls() + " SET request_event_id = NULL WHERE session_id = ?"
        + " AND request_event_id IN (SELECT id FROM " + tables.events() + " WHERE session_id = ? AND seq <= ?)",
        sessionId, sessionId, through);
    sql.update(connection, "DELETE FROM " + tables.events() + " WHERE session_id = ? AND seq <= ?", sessionId,
        through);
    sql.update(connection, "DELETE FROM " + tables.segments() + " WHERE session_id = ? AND to_seq <= ?", sessionId,
        through);
    sql.update(connection, "UPDATE " + tables.segments() + " SET from_seq = ? WHERE session_id = ? AND from_seq <= ?",
        through + 1, sessionId, through);
    sql.update(connection, "UPDATE " + tables.sessions() + " SET cut_seq = ? WHERE id = ?", through, sessionId);
    return cut.removed();
  }

  private long removeAudit(RetentionPolicy policy, Optional<Instant> idleCutoff, Instant cutoff, Mode mode) {
    if (mode != Mode.DRY_RUN) {
      return database.transaction("remove old model calls", connection -> sql.update(connection,
          "DELETE FROM " + tables.modelCalls() + " WHERE recorded_at < ?", cutoff));
    }
    return database.read("count old model calls", connection -> {
      List<Object> parameters = new ArrayList<>(List.of(cutoff));
      if (idleCutoff.isPresent()) {
        parameters.addAll(idleParameters(connection, policy, idleCutoff.get()));
      }
      return sql.first(connection, "SELECT count(*) FROM " + tables.modelCalls() + " m JOIN " + tables.sessions()
          + " s ON s.id = m.session_id WHERE m.recorded_at < ?"
          + (idleCutoff.isPresent() ? " AND NOT " + idle(policy) : ""), row -> row.getLong(1),
          parameters.toArray()).orElse(0L);
    });
  }

  /** Locks the session and the sessions sharing its events: waiting for them, or, in a sweep, only if free. */
  private List<String> lock(Connection connection, String sessionId, Mode mode) throws SQLException {
    Dependents dependents = sessions.dependents();
    return mode == Mode.SWEEP ? dependents.tryLockTogether(connection, List.of(sessionId), 1)
        : dependents.lockTogether(connection, List.of(sessionId), 1);
  }

  /** The parameters of a candidate query, bound on the connection that runs it. */
  @FunctionalInterface
  private interface Parameters {
    List<Object> on(Connection connection) throws SQLException;
  }

  /**
   * The ids {@code select} (over {@code s}, ending in its conditions) returns, in id order, a batch at a time (keyset
   * pages by id, so sessions deleted or changed meanwhile never make it skip or repeat one).
   */
  private Iterable<List<String>> batches(String select, Parameters parameters) {
    String page = select + " AND s.id > ? ORDER BY s.id LIMIT " + BATCH_SIZE;
    return () -> new Iterator<>() {
      private String after = "";
      private List<String> next = read();

      private List<String> read() {
        return database.read("find retention candidates", connection -> {
          List<Object> bound = new ArrayList<>(parameters.on(connection));
          bound.add(after);
          return sql.list(connection, page, row -> row.getString(1), bound.toArray());
        });
      }

      @Override
      public boolean hasNext() {
        return !next.isEmpty();
      }

      @Override
      public List<String> next() {
        List<String> current = next;
        after = current.get(current.size() - 1);
        next = current.size() < BATCH_SIZE ? List.of() : read();
        return current;
      }
    };
  }
}
