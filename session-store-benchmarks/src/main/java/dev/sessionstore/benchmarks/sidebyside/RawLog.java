package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.NewEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The raw-JDBC twin of the library's event log: the plainest statements that do each job on the same tables (a
 * schema the library created), through a pool of the same settings. Each method's javadoc says what it guarantees;
 * none replays ids idempotently, checks an expected seq or validates payloads, and reads return the stored text
 * rather than parsed documents.
 */
final class RawLog {

  /**
   * Moves the head of the session by the batch size, creating the session if unknown; returns the new head. The
   * upsert's row lock serializes writers of one session until commit, so seqs are gapless.
   */
  private static final String HEAD = """
      WITH head AS (
        INSERT INTO %1$s AS s (id, status, settings, metadata, last_seq, created_at, updated_at)
        VALUES (?, 'active', '{}', '{}', ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET last_seq = s.last_seq + excluded.last_seq
        RETURNING s.last_seq)
      """;

  private final DataSource pool;
  private final String sessions;
  private final String events;
  private final String summaries;
  private final String appendOne;
  private final String appendBatch;

  RawLog(PgSchema schema, DataSource pool) {
    this.pool = pool;
    this.sessions = schema.table("sessions");
    this.events = schema.table("events");
    this.summaries = schema.table("summaries");
    this.appendOne = HEAD.formatted(sessions) + "INSERT INTO " + events
        + " (session_id, seq, id, type, payload, ts) SELECT ?, head.last_seq, ?, ?, ?::json, ? FROM head";
    this.appendBatch = HEAD.formatted(sessions) + "INSERT INTO " + events
        + " (session_id, seq, id, type, payload, ts)"
        + " SELECT ?, head.last_seq - ? + e.ordinality, e.id, e.type, e.payload::json, ?"
        + " FROM head, unnest(?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS e(id, type, payload, ordinality)";
  }

  /**
   * Appends one event in one auto-committed statement: gapless seq, session created if unknown. A reused id fails
   * with the unique violation instead of returning the stored event.
   */
  void append(String sessionId, NewEvent event) throws SQLException {
    try (Connection connection = pool.getConnection()) {
      append(connection, sessionId, event);
    }
  }

  /** Like {@link #append(String, NewEvent)}, for many events in one auto-committed statement (arrays): atomic. */
  void appendAll(String sessionId, List<NewEvent> batch) throws SQLException {
    List<String> ids = new ArrayList<>(batch.size());
    List<String> types = new ArrayList<>(batch.size());
    List<String> payloads = new ArrayList<>(batch.size());
    for (NewEvent event : batch) {
      ids.add(event.id());
      types.add(event.type());
      payloads.add(event.payload().text());
    }
    OffsetDateTime now = now();
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(appendBatch)) {
      statement.setString(1, sessionId);
      statement.setLong(2, batch.size());
      statement.setObject(3, now);
      statement.setObject(4, now);
      statement.setString(5, sessionId);
      statement.setLong(6, batch.size());
      statement.setObject(7, now);
      statement.setArray(8, connection.createArrayOf("text", ids.toArray()));
      statement.setArray(9, connection.createArrayOf("text", types.toArray()));
      statement.setArray(10, connection.createArrayOf("text", payloads.toArray()));
      statement.executeUpdate();
    }
  }

  /**
   * Appends one event as {@link #append(String, NewEvent)} does and sends {@code NOTIFY channel, sessionId} in the
   * same transaction, so a listener learns of it once it is committed.
   */
  void appendAndNotify(String sessionId, NewEvent event, String channel) throws SQLException {
    inTransaction(connection -> {
      append(connection, sessionId, event);
      try (PreparedStatement notify = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
        notify.setString(1, channel);
        notify.setString(2, sessionId);
        notify.execute();
      }
      return null;
    });
  }

  /** The last {@code n} events of the session, oldest first, read in one statement by the primary key. */
  List<RawEvent> tail(String sessionId, int n) throws SQLException {
    List<RawEvent> tail = query("SELECT seq, id, type, payload, ts, 0 FROM " + events
        + " WHERE session_id = ? ORDER BY seq DESC LIMIT ?", sessionId, n);
    Collections.reverse(tail);
    return tail;
  }

  /** The events of the session after {@code seq}, oldest first, in one statement. */
  List<RawEvent> after(String sessionId, long seq) throws SQLException {
    return query("SELECT seq, id, type, payload, ts, 0 FROM " + events
        + " WHERE session_id = ? AND seq > ? ORDER BY seq", sessionId, seq);
  }

  /**
   * The session's latest summary (its content as stored, as the row of seq 0) and the events after it, oldest first:
   * two statements in one read-only {@code REPEATABLE READ} transaction, so one snapshot. The second statement gets
   * the summary's {@code to_seq} as a bound value, so the planner knows how few events follow it.
   */
  List<RawEvent> revive(String sessionId) throws SQLException {
    return inSnapshot(connection -> {
      List<RawEvent> revival = query(connection, "SELECT 0, 'summary', 'summary', content, created_at, to_seq"
          + " FROM " + summaries + " WHERE session_id = ? ORDER BY to_seq DESC LIMIT 1", sessionId);
      long after = revival.isEmpty() ? 0 : revival.get(0).summaryToSeq();
      revival.addAll(query(connection, "SELECT seq, id, type, payload, ts, 0 FROM " + events
          + " WHERE session_id = ? AND seq > ? ORDER BY seq", sessionId, after));
      return revival;
    });
  }

  /**
   * Copies session {@code parentId}'s row and its events up to {@code atSeq} to a new session {@code forkId}, in one
   * transaction ({@code INSERT … SELECT}): the copy is consistent and all or nothing. Summaries, runs, tool calls
   * and checkpoints are not copied.
   */
  void fork(String parentId, long atSeq, String forkId) throws SQLException {
    inTransaction(connection -> {
      try (PreparedStatement session = connection.prepareStatement("INSERT INTO " + sessions
              + " (id, status, settings, metadata, fork_parent_id, fork_seq, last_seq, created_at, updated_at)"
              + " SELECT ?, status, settings, metadata, id, ?, ?, now(), now() FROM " + sessions + " WHERE id = ?");
          PreparedStatement copy = connection.prepareStatement("INSERT INTO " + events
              + " (session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts)"
              + " SELECT ?, seq, id, type, run_id, agent_id, parent_id, payload, ts FROM " + events
              + " WHERE session_id = ? AND seq <= ?")) {
        session.setString(1, forkId);
        session.setLong(2, atSeq);
        session.setLong(3, atSeq);
        session.setString(4, parentId);
        session.executeUpdate();
        copy.setString(1, forkId);
        copy.setString(2, parentId);
        copy.setLong(3, atSeq);
        copy.executeUpdate();
      }
      return null;
    });
  }

  /** Deletes the session and, by cascade, its events. */
  void delete(String sessionId) throws SQLException {
    try (Connection connection = pool.getConnection();
        PreparedStatement delete = connection.prepareStatement("DELETE FROM " + sessions + " WHERE id = ?")) {
      delete.setString(1, sessionId);
      delete.executeUpdate();
    }
  }

  /** The head of the session, read in one statement; empty if unknown. */
  Optional<Long> lastSeq(String sessionId) throws SQLException {
    try (Connection connection = pool.getConnection();
        PreparedStatement head = connection.prepareStatement("SELECT last_seq FROM " + sessions + " WHERE id = ?")) {
      head.setString(1, sessionId);
      try (ResultSet row = head.executeQuery()) {
        return row.next() ? Optional.of(row.getLong(1)) : Optional.empty();
      }
    }
  }

  /** Runs {@code work} on a pooled connection in one transaction, committed if it returns, else rolled back. */
  private void inTransaction(Work<Void> work) throws SQLException {
    transaction(Connection.TRANSACTION_READ_COMMITTED, false, work);
  }

  /** Runs {@code work} in one read-only {@code REPEATABLE READ} transaction: every statement sees one snapshot. */
  private <T> T inSnapshot(Work<T> work) throws SQLException {
    return transaction(Connection.TRANSACTION_REPEATABLE_READ, true, work);
  }

  private <T> T transaction(int isolation, boolean readOnly, Work<T> work) throws SQLException {
    try (Connection connection = pool.getConnection()) {
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(isolation);
      connection.setReadOnly(readOnly);
      try {
        T result = work.run(connection);
        connection.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(true);
        connection.setReadOnly(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      }
    }
  }

  private void append(Connection connection, String sessionId, NewEvent event) throws SQLException {
    OffsetDateTime now = now();
    try (PreparedStatement statement = connection.prepareStatement(appendOne)) {
      statement.setString(1, sessionId);
      statement.setLong(2, 1);
      statement.setObject(3, now);
      statement.setObject(4, now);
      statement.setString(5, sessionId);
      statement.setString(6, event.id());
      statement.setString(7, event.type());
      statement.setString(8, event.payload().text());
      statement.setObject(9, now);
      statement.executeUpdate();
    }
  }

  private List<RawEvent> query(String sql, Object... parameters) throws SQLException {
    try (Connection connection = pool.getConnection()) {
      return query(connection, sql, parameters);
    }
  }

  /** Event rows of {@code sql}, whose columns are seq, id, type, payload, ts and the summary's to_seq or 0. */
  private static List<RawEvent> query(Connection connection, String sql, Object... parameters) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      List<RawEvent> rows = new ArrayList<>();
      try (ResultSet row = statement.executeQuery()) {
        while (row.next()) {
          rows.add(new RawEvent(row.getLong(1), row.getString(2), row.getString(3), row.getString(4),
              row.getObject(5, OffsetDateTime.class), row.getLong(6)));
        }
      }
      return rows;
    }
  }

  private static OffsetDateTime now() {
    return OffsetDateTime.now(ZoneOffset.UTC);
  }

  /** Statements run in one transaction, and what they read. */
  @FunctionalInterface
  private interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /**
   * An event row as the twin reads it: the payload is the stored text, not parsed. A summary read with the events is
   * the row of seq 0, with its {@code to_seq} (else 0).
   */
  record RawEvent(long seq, String id, String type, String payload, OffsetDateTime ts, long summaryToSeq) {
  }
}
