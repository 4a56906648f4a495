package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * PostgreSQL 12 or later through pgjdbc: {@code json} columns for documents (the text as written) and {@code jsonb}
 * for session metadata, {@code INSERT … ON CONFLICT}, {@code FOR NO KEY
 * UPDATE} head locks, a batch append as one statement over arrays ({@code unnest … WITH ORDINALITY}), and
 * {@code LISTEN/NOTIFY} wake-ups.
 */
final class PostgresDialect implements Dialect {

  /**
   * The earliest instant stored and read back exactly: {@code timestamptz} starts in 4714 BC, but pgjdbc misreads
   * some dates before year 1 (BC leap days).
   */
  private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
  /** The last microsecond {@code timestamptz} holds. */
  private static final Instant LATEST = Instant.parse("+294276-12-31T23:59:59.999999Z");

  /**
   * Appends at whatever the head is once its lock is granted, in one statement: the head moves by the batch size
   * and returns the old head as the base of the new seqs; the events, one array per column, get base + ordinality.
   * {@code %3$s} is the head: {@link #CREATE_OR_MOVE_HEAD} or {@link #MOVE_EXPECTED_HEAD}. Nothing happens when the
   * head is elsewhere than expected, or when {@code stored} finds one of the ids in the statement's snapshot (a
   * replay: no write, no lock, no error). An id committed after that snapshot, by a transaction that held the head
   * lock meanwhile, is skipped by {@code ON CONFLICT DO NOTHING}, which checks the unique index against
   * every committed row: fewer rows inserted than the batch holds tell the caller. {@code stored} probes the
   * (session, id) key once per id ({@code LATERAL … LIMIT 1}): with {@code id = ANY(?)} a cached generic plan,
   * estimated from the statistics of a young table, scanned the session's rows by another index, growing with the
   * log. Parameters: ids, id, the head's, id, the seven event arrays.
   */
  private static final String APPEND_AT_HEAD = """
      WITH stored AS (
        SELECT EXISTS (SELECT FROM unnest(?::text[]) AS b(id),
          LATERAL (SELECT FROM %1$s e WHERE e.session_id = ? AND e.id = b.id LIMIT 1) AS e) AS found
      ), head AS (
        %3$s
      ), appended AS (
        INSERT INTO %1$s (session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts)
        SELECT ?, head.base + e.ordinality, e.id, e.type, e.run_id, e.agent_id, e.parent_id, e.payload::json, e.ts
        FROM head, unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::timestamptz[])
             WITH ORDINALITY AS e(id, type, run_id, agent_id, parent_id, payload, ts, ordinality)
        ON CONFLICT (session_id, id) DO NOTHING
        RETURNING 1
      )
      SELECT base, (SELECT count(*) FROM appended) AS inserted FROM head""";

  /**
   * The head of a session expected empty or not expected anywhere, unless one of the ids is stored: an unknown
   * session is created with the batch as its log (which locks its new row), a known one is locked and moved if at
   * the expected seq. Parameters: id, batch size, now, now, expected or null (twice), batch size.
   */
  private static final String CREATE_OR_MOVE_HEAD = """
      INSERT INTO %2$s AS s (id, status, settings, metadata, last_seq, created_at, updated_at)
        SELECT ?, 'active', '{}'::json, '{}'::jsonb, ?::bigint, ?::timestamptz, ?::timestamptz
        FROM stored WHERE NOT stored.found
        ON CONFLICT (id) DO UPDATE SET last_seq = s.last_seq + excluded.last_seq
        WHERE ?::bigint IS NULL OR s.last_seq = ?::bigint
        RETURNING s.last_seq - ? AS base""";

  /**
   * The head of a session expected at a seq above 0, which must exist: locked and moved if there, unless one of the
   * ids is stored. Parameters: batch size, id, expected seq, batch size.
   */
  private static final String MOVE_EXPECTED_HEAD = """
      UPDATE %2$s SET last_seq = last_seq + ?
        WHERE id = ? AND last_seq = ? AND NOT (SELECT found FROM stored)
        RETURNING last_seq - ? AS base""";

  /** Like {@link #APPEND_AT_HEAD} for a head the transaction has locked already and knows. */
  private static final String APPEND_AT_LOCKED_HEAD = """
      WITH appended AS (
        INSERT INTO %1$s (session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts)
        SELECT ?, ?::bigint + e.ordinality, e.id, e.type, e.run_id, e.agent_id, e.parent_id, e.payload::json, e.ts
        FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::timestamptz[])
             WITH ORDINALITY AS e(id, type, run_id, agent_id, parent_id, payload, ts, ordinality)
      )
      UPDATE %2$s SET last_seq = ? WHERE id = ?""";

  /**
   * One notification per wake key of the array, in one statement. Parameters: channel, wake keys. Its transaction
   * commits without waiting for the WAL flush ({@code synchronous_commit} off for that transaction only): it writes
   * nothing that must survive a crash, and appends need not share their flushes with it.
   */
  private static final String NOTIFY_EACH = """
      SELECT pg_notify(?, key) FROM unnest(?::text[]) AS key
      WHERE set_config('synchronous_commit', 'off', true) IS NOT NULL""";

  @Override
  public String migrationFolder() {
    return "dev/sessionstore/jdbc/postgresql/";
  }

  @Override
  public String acquireMigrationLock() {
    return "SELECT pg_advisory_lock(?)";
  }

  @Override
  public String releaseMigrationLock() {
    return "SELECT pg_advisory_unlock(?)";
  }

  @Override
  public String jsonParameter() {
    return "?::json";
  }

  @Override
  public String metadataParameter() {
    return "?::jsonb";
  }

  /** The column's text is the document as written: {@code json} keeps it verbatim. */
  @Override
  public Json readJson(ResultSet row, String column) throws SQLException {
    String text = row.getString(column);
    return text == null ? null : Json.parse(column, text);
  }

  @Override
  public String onConflictUpdate(String conflictTarget, String assignments) {
    return " ON CONFLICT (" + conflictTarget + ") DO UPDATE SET " + assignments;
  }

  @Override
  public String onConflictIgnore(String conflictTarget) {
    return " ON CONFLICT (" + conflictTarget + ") DO NOTHING";
  }

  @Override
  public String lockForUpdate() {
    return " FOR NO KEY UPDATE";
  }

  @Override
  public Optional<HeadMove> appendAtHead(Connection connection, Tables tables, String sessionId,
      List<NewEvent> events, Instant now, OptionalLong expectedHead) throws SQLException {
    long size = events.size();
    List<Array> arrays = eventArrays(connection, events, now);
    List<Object> parameters = new ArrayList<>(List.of(arrays.get(0), sessionId));
    String head;
    if (expectedHead.isPresent() && expectedHead.getAsLong() > 0) {
      head = MOVE_EXPECTED_HEAD;
      parameters.addAll(List.of(size, sessionId, expectedHead.getAsLong(), size));
    } else {
      head = CREATE_OR_MOVE_HEAD;
      Long expected = expectedHead.isPresent() ? expectedHead.getAsLong() : null;
      parameters.addAll(List.of(sessionId, size, now, now));
      parameters.add(expected);
      parameters.add(expected);
      parameters.add(size);
    }
    parameters.add(sessionId);
    parameters.addAll(arrays);
    return Sql.first(connection,
        APPEND_AT_HEAD.formatted(tables.events(), tables.sessions(), head.formatted(tables.events(),
            tables.sessions())),
        row -> new HeadMove(row.getLong("base"), row.getLong("inserted")), parameters.toArray());
  }

  @Override
  public void appendAtLockedHead(Connection connection, Tables tables, String sessionId, long head,
      List<NewEvent> events, Instant now) throws SQLException {
    List<Object> parameters = new ArrayList<>(List.of(sessionId, head));
    parameters.addAll(eventArrays(connection, events, now));
    parameters.add(head + events.size());
    parameters.add(sessionId);
    Sql.update(connection, APPEND_AT_LOCKED_HEAD.formatted(tables.events(), tables.sessions()), parameters.toArray());
  }

  /** The columns of {@code events} as the seven array parameters both append statements take. */
  private List<Array> eventArrays(Connection connection, List<NewEvent> events, Instant now) throws SQLException {
    int size = events.size();
    List<String> ids = new ArrayList<>(size);
    List<String> types = new ArrayList<>(size);
    List<String> runIds = new ArrayList<>(size);
    List<String> agentIds = new ArrayList<>(size);
    List<String> parentIds = new ArrayList<>(size);
    List<String> payloads = new ArrayList<>(size);
    List<Instant> timestamps = new ArrayList<>(size);
    for (NewEvent event : events) {
      ids.add(event.id());
      types.add(event.type());
      runIds.add(event.runId());
      agentIds.add(event.agentId());
      parentIds.add(event.parentId());
      payloads.add(event.payload().text());
      timestamps.add(event.timestamp() == null ? now : event.timestamp());
    }
    return List.of(Sql.textArray(connection, ids), Sql.textArray(connection, types),
        Sql.textArray(connection, runIds), Sql.textArray(connection, agentIds), Sql.textArray(connection, parentIds),
        Sql.textArray(connection, payloads), timestampArray(connection, timestamps));
  }

  @Override
  public Instant earliestStorable() {
    return EARLIEST;
  }

  @Override
  public boolean isStorable(Instant instant) {
    return !instant.isBefore(EARLIEST) && !instant.isAfter(LATEST);
  }

  @Override
  public Array timestampArray(Connection connection, List<Instant> instants) throws SQLException {
    String[] literals = new String[instants.size()];
    for (int i = 0; i < literals.length; i++) {
      literals[i] = timestampLiteral(instants.get(i));
    }
    return connection.createArrayOf("timestamptz", literals);
  }

  /**
   * PostgreSQL's own text form in UTC ({@code 2030-01-01 00:00:00.000000+00}), which it reads exactly for every
   * storable instant, five-digit years included; arithmetic on intervals would round far from 1970.
   */
  private static String timestampLiteral(Instant instant) {
    LocalDateTime utc = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
    return String.format("%04d-%02d-%02d %02d:%02d:%02d.%06d+00", utc.getYear(), utc.getMonthValue(),
        utc.getDayOfMonth(), utc.getHour(), utc.getMinute(), utc.getSecond(), utc.getNano() / 1_000);
  }

  @Override
  public String notifyEach() {
    return NOTIFY_EACH;
  }

  @Override
  public WakeUpListener listen(DataSource dataSource, Tables tables, SessionWaiters waiters) {
    return PostgresNotificationListener.start(dataSource, tables.channel(), waiters);
  }

  /**
   * Unique violations are conflicts; data exceptions (SQLSTATE class 22: out of range, invalid representation,
   * untranslatable character) are bad input; deadlocks and serialization failures may be retried.
   */
  /**
   * The SQLState table: {@code 23505} a unique violation (with its constraint); {@code 40001} and {@code 40P01}
   * (serialization failure, deadlock) retryable; class {@code 08} (connection exception) and {@code 57P01},
   * {@code 57P02}, {@code 57P03} (administrator shutdown or backend terminated, crash shutdown, cannot connect now)
   * a lost connection; class {@code 22} an invalid value; anything else a backend failure. An error without a
   * SQLState is a lost connection when it says so by its type (a pool's transient connection failure, pgjdbc's
   * I/O error) and a backend failure otherwise; {@link Database} also counts one on a closed connection as lost.
   */
  @Override
  public SqlFailure classify(SQLException error) {
    String state = error.getSQLState();
    if (state == null) {
      return SqlFailure.of(isConnectionError(error) ? SqlFailure.Kind.CONNECTION : SqlFailure.Kind.BACKEND, null);
    }
    if (state.equals("23505")) {
      return new SqlFailure(SqlFailure.Kind.UNIQUE_VIOLATION, state, constraint(error));
    }
    if (state.equals("40001") || state.equals("40P01")) {
      return SqlFailure.of(SqlFailure.Kind.RETRYABLE, state);
    }
    if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
      return SqlFailure.of(SqlFailure.Kind.CONNECTION, state);
    }
    if (state.startsWith("22")) {
      return SqlFailure.of(SqlFailure.Kind.INVALID_VALUE, state);
    }
    return SqlFailure.of(SqlFailure.Kind.BACKEND, state);
  }

  /** The server's message without pgjdbc's severity prefix ({@code FATAL: }), or the driver's own message. */
  @Override
  public String message(SQLException error) {
    if (error instanceof PSQLException psql && psql.getServerErrorMessage() != null
        && psql.getServerErrorMessage().getMessage() != null) {
      return psql.getServerErrorMessage().getMessage();
    }
    return String.valueOf(error.getMessage());
  }

  private static boolean isConnectionError(SQLException error) {
    return error instanceof SQLTransientConnectionException || error instanceof SQLRecoverableException
        || error instanceof PSQLException && error.getCause() instanceof IOException;
  }

  private static String constraint(SQLException error) {
    if (error instanceof PSQLException psql) {
      ServerErrorMessage message = psql.getServerErrorMessage();
      return message == null ? null : message.getConstraint();
    }
    return null;
  }
}
