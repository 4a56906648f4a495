package dev.sessionstore.jdbc.internal;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Resolution;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallResolution;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.Expiry;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.Timeouts;
import dev.sessionstore.spi.ToolCallTransitions;
import dev.sessionstore.spi.Upserts;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Tool calls on the tool_calls table, keyed by (session, call id), deadlines included. Resolution is one conditional
 * update from pending and not due ({@code WHERE status = 'pending' AND (deadline IS NULL OR deadline > now)}, the
 * negation of {@link ToolCallTransitions#isDue} in SQL): the database serializes concurrent updates of a row and
 * re-checks the condition for each, so exactly one resolver gets the row back; a loser reads the call and
 * {@link ToolCallTransitions#settled} tells a replay from a stale resolve.
 *
 * <p>A call is due once the store clock reaches its deadline. Every read turns a due call it meets into an expired
 * one in the database before returning it ({@link #expire}), so what one read saw expired every later read sees
 * expired, whether or not the {@link DeadlineSweeper} got there first. The store clock's instant is always passed
 * as a parameter: the database's own time never decides.
 *
 * <p>Every change of a call's state (resolution, expiry) wakes the waiters of its session once committed, in this
 * instance directly and in others through the store's notification channel ({@link AppendNotifier}):
 * {@link #await} re-reads the call on each wake-up, and at least every poll interval ({@link SessionWait}).
 */
final class JdbcToolCalls implements ToolCalls {

  private static final String COLUMNS = "id, session_id, run_id, request_event_id, tool_name, arguments, status,"
      + " result, deadline, created_at, updated_at";

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final ImplicitSession implicitSession;
  private final AppendNotifier notifier;
  private final SessionWait waiting;
  private final Sql sql;
  private final RowMapper<ToolCall> calls;
  private final String select;
  private final String selectForUpdate;
  private final WriteChain insert;
  private final String insertNew;
  private final String update;
  private final String resolve;
  private final String expire;
  /** Whether a session's log, its own events or those it shares, holds an event: by id. */
  private final String eventById;

  JdbcToolCalls(Database database, Tables tables, Clock clock, ImplicitSession implicitSession,
      AppendNotifier notifier, SessionWait waiting) {
    this.database = database;
    this.implicitSession = implicitSession;
    this.tables = tables;
    this.clock = clock;
    this.notifier = notifier;
    this.waiting = waiting;
    Dialect dialect = database.dialect();
    this.sql = new Sql(dialect);
    this.eventById = new LogView(dialect, tables).select("seq", "id = ?", null, null);
    this.calls = row -> new ToolCall(
        row.getString("id"),
        row.getString("session_id"),
        row.getString("run_id"),
        row.getString("request_event_id"),
        row.getString("tool_name"),
        dialect.readJson(row, "arguments"),
        status(row.getString("status")),
        dialect.readJson(row, "result"),
        dialect.readInstant(row, "deadline"),
        dialect.readInstant(row, "created_at"),
        dialect.readInstant(row, "updated_at"));
    String json = dialect.jsonParameter();
    this.select = "SELECT " + COLUMNS + " FROM " + tables.toolCalls() + " WHERE session_id = ? AND id = ?";
    this.selectForUpdate = select + dialect.lockForUpdate();
    this.insertNew = "INSERT INTO " + tables.toolCalls() + " (" + COLUMNS + ")"
        + " VALUES (?, ?, ?, ?, ?, " + json + ", ?, " + json + ", ?, ?, ?)"
        + dialect.onConflictIgnore("session_id, id");
    this.insert = implicitSession.before(insertNew);
    this.update = "UPDATE " + tables.toolCalls() + " SET run_id = ?, request_event_id = ?, tool_name = ?,"
        + " arguments = " + json + ", status = ?, result = " + json + ", deadline = ?, updated_at = ?"
        + " WHERE session_id = ? AND id = ?";
    this.resolve = "UPDATE " + tables.toolCalls() + " SET status = ?, result = " + json
        + ", deadline = NULL, updated_at = ?"
        + " WHERE session_id = ? AND id = ? AND status = 'pending' AND (deadline IS NULL OR deadline > ?)"
        + " RETURNING " + COLUMNS;
    // Expires the given due calls unless they changed since they were read (resolved, deadline reset).
    this.expire = "UPDATE " + tables.toolCalls() + " SET status = 'expired', result = " + json
        + ", deadline = NULL, updated_at = ?"
        + " WHERE session_id = ? AND id = ? AND status = 'pending' AND deadline = ?";
  }

  @Override
  public ToolCall save(ToolCallWrite write) {
    checkStorable(write);
    return database.transaction("save tool call " + write.id() + " of session " + write.sessionId(), connection -> {
      if (write.requestEventId() != null) {
        requireEvent(connection, write.sessionId(), write.requestEventId());
      }
      Instant now = clock.instant();
      while (true) {
        Optional<ToolCall> stored = current(connection, write.sessionId(), write.id(), now);
        ToolCall merged = Upserts.toolCall(write, stored.orElse(null), now);
        if (stored.isPresent()) {
          update(connection, merged);
          return merged;
        }
        if (insert.update(connection, implicitSession.parameters(merged.sessionId(), now),
            insertParameters(merged)) == 1) {
          return merged;
        }
        // Created by another transaction since our read: merge into that one instead.
      }
    });
  }

  @Override
  public Optional<ToolCall> find(String sessionId, String toolCallId) {
    return database.autoCommit("find tool call " + toolCallId + " of session " + sessionId,
        connection -> find(connection, sessionId, toolCallId));
  }

  @Override
  public List<ToolCall> pending(String sessionId) {
    return database.autoCommit("list the pending tool calls of session " + sessionId, connection -> {
      Instant now = clock.instant();
      List<ToolCall> pending = sql.list(connection, "SELECT " + COLUMNS + " FROM " + tables.toolCalls()
          + " WHERE session_id = ? AND status = 'pending' ORDER BY created_at, id", calls, sessionId);
      List<ToolCall> due = pending.stream().filter(call -> ToolCallTransitions.isDue(call, now)).toList();
      if (!due.isEmpty()) {
        expire(connection, due, now);
      }
      return pending.stream().filter(call -> !ToolCallTransitions.isDue(call, now)).toList();
    });
  }

  /**
   * The session's calls of every status as stored, in creation order (then by id), read in the caller's
   * transaction; a call due at {@code now} is returned expired, as a read at {@code now} sees it.
   */
  List<ToolCall> all(Connection connection, String sessionId, Instant now) throws SQLException {
    return sql.list(connection, "SELECT " + COLUMNS + " FROM " + tables.toolCalls()
            + " WHERE session_id = ? ORDER BY created_at, id", calls, sessionId).stream()
        .map(call -> ToolCallTransitions.isDue(call, now) ? ToolCallTransitions.expired(call, now) : call)
        .toList();
  }

  /** Expires the session's calls due at {@code now}, as a read does; auto-committed, it wakes their waiters. */
  void expireDue(Connection connection, String sessionId, Instant now) throws SQLException {
    List<ToolCall> due = sql.list(connection, "SELECT " + COLUMNS + " FROM " + tables.toolCalls()
        + " WHERE session_id = ? AND status = 'pending' AND deadline <= ?", calls, sessionId, now);
    if (!due.isEmpty()) {
      expire(connection, due, now);
    }
  }

  /** Stores exported calls as they are (status, result, deadline and times), in the caller's transaction. */
  void insertAll(Connection connection, List<ToolCall> exported) throws SQLException {
    if (!exported.isEmpty()) {
      sql.updateEach(connection, insertNew, exported.stream().map(JdbcToolCalls::insertParameters).toList());
    }
  }

  @Override
  public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
    ToolCallResolution asked = new ToolCallResolution(toolCallId, status, result);
    // Settled by its own result: a second run after a commit lost in doubt would answer Replayed for this call's win.
    Resolution resolution = database.transaction("resolve tool call " + toolCallId + " of session " + sessionId,
        UnknownOutcome.ownResult(), connection -> {
          while (true) {
            Instant now = clock.instant();
            Optional<ToolCall> won = sql.first(connection, resolve, calls, column(asked.status()), asked.result(),
                now, sessionId, toolCallId, now);
            if (won.isPresent()) {
              return new Resolution.Resolved(won.get());
            }
            ToolCall current = find(connection, sessionId, toolCallId).orElse(null);
            Optional<Resolution> settled =
                ToolCallTransitions.settled(toolCallId, current, asked.status(), asked.result());
            if (settled.isPresent()) {
              return settled.get();
            }
            // Pending again by the time of the read (a deadline reset raced the update): try the update again.
          }
        });
    if (resolution.won()) {
      notifier.appended(sessionId);
    }
    return resolution;
  }

  @Override
  public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
    // The re-read may expire a due call: idempotent, so it may run again after a lost connection like a read.
    return waiting.await(sessionId, timeout,
        () -> database.readOnce("wait for tool call " + toolCallId + " of session " + sessionId,
            connection -> find(connection, sessionId, toolCallId)
                .filter(call -> call.status() != ToolCallStatus.PENDING)),
        Optional::isPresent, Optional.empty());
  }

  @Override
  public boolean expireAt(String sessionId, String toolCallId, Instant deadline) {
    Instant storedDeadline = database.dialect().requireStorable("deadline", deadline);
    return database.transaction("set the deadline of tool call " + toolCallId + " of session " + sessionId,
        UnknownOutcome.ownResult(), connection -> {
          Instant now = clock.instant();
          if (setDeadline(connection, sessionId, toolCallId, storedDeadline, now)) {
            return true;
          }
          if (find(connection, sessionId, toolCallId).isEmpty()) {
            throw Failures.toolCallNotFound(sessionId, toolCallId);
          }
          return false;
        });
  }

  @Override
  public boolean expireAfter(String sessionId, String toolCallId, Duration timeout) {
    return expireAt(sessionId, toolCallId, Arguments.requireInstant("deadline",
        Timeouts.deadlineAfter(clock.instant(), timeout)));
  }

  @Override
  public boolean cancelDeadline(String sessionId, String toolCallId) {
    return database.transaction("cancel the deadline of tool call " + toolCallId + " of session " + sessionId,
        UnknownOutcome.ownResult(), connection -> setDeadline(connection, sessionId, toolCallId, null, clock.instant()));
  }

  /**
   * Checks, before any write, that the database can store the deadline {@code write} brings.
   *
   * @throws InvalidArgumentException naming {@code toolCall.deadline} if it cannot be stored
   */
  void checkStorable(ToolCallWrite write) {
    if (write.deadline() != null) {
      database.dialect().requireStorable("toolCall.deadline", write.deadline());
    }
  }

  /**
   * The session's call as stored, locked until commit, and as a read at {@code now} sees it: expired if due (the
   * expiry itself is written by whoever stores the call next, or by a read or the sweeper).
   */
  Optional<ToolCall> current(Connection connection, String sessionId, String toolCallId, Instant now)
      throws SQLException {
    return sql.first(connection, selectForUpdate, calls, sessionId, toolCallId)
        .map(call -> ToolCallTransitions.isDue(call, now) ? ToolCallTransitions.expired(call, now) : call);
  }

  /**
   * Stores {@code call} in the caller's transaction, which read it with {@link #current} ({@code existed}) or found
   * none; returns whether it was stored. A call found absent that another transaction created since comes back
   * {@code false}, with nothing written.
   */
  boolean store(Connection connection, ToolCall call, boolean existed, Instant now) throws SQLException {
    if (existed) {
      update(connection, call);
      return true;
    }
    return sql.update(connection, insertNew, insertParameters(call)) == 1;
  }

  /**
   * Fails unless the session's log holds the event {@code eventId}, as its own or shared from an ancestor.
   *
   * @throws NotFoundException for kind {@code "event"}
   */
  void requireEvent(Connection connection, String sessionId, String eventId) throws SQLException {
    if (sql.first(connection, eventById, row -> true, sessionId, eventId, sessionId, eventId).isEmpty()) {
      throw Failures.eventNotFound(sessionId, eventId);
    }
  }

  /**
   * Expires {@code due} calls that are still pending with the deadline they were read with, then (once committed:
   * the caller's transaction, or this statement in auto-commit) wakes the waiters of their sessions. Shared with the
   * {@link DeadlineSweeper}, so a sweep and a read expire a call alike and only once.
   *
   * @return the session ids of the calls expired, one per call
   */
  List<String> expire(Connection connection, List<ToolCall> due, Instant now) throws SQLException {
    List<Object[]> parameterSets = new ArrayList<>(due.size());
    for (ToolCall call : due) {
      parameterSets.add(new Object[] {Expiry.result(call.deadline()), now, call.sessionId(), call.id(),
          call.deadline()});
    }
    int[] counts = sql.updateEach(connection, expire, parameterSets);
    List<String> expired = new ArrayList<>(due.size());
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] > 0) {
        expired.add(due.get(i).sessionId());
      }
    }
    if (connection.getAutoCommit()) {
      wake(expired);
    }
    return expired;
  }

  /** Wakes the tool-call and event waiters of each session, after a commit that changed their calls. */
  void wake(List<String> sessionIds) {
    sessionIds.stream().distinct().forEach(notifier::appended);
  }

  /**
   * Selects up to {@code limit} due calls, locking them and skipping those another sweeper holds. Its condition is
   * the SQL twin of {@link ToolCallTransitions#isDue}.
   */
  List<ToolCall> lockDue(Connection connection, Instant now, int limit) throws SQLException {
    return sql.list(connection, "SELECT " + COLUMNS + " FROM " + tables.toolCalls()
        + " WHERE status = 'pending' AND deadline <= ? ORDER BY deadline LIMIT ?"
        + database.dialect().lockSkippingLocked(),
        calls, now, limit);
  }

  /** The call as stored, expiring it first if it is due; re-reads when another writer changed it meanwhile. */
  private Optional<ToolCall> find(Connection connection, String sessionId, String toolCallId) throws SQLException {
    while (true) {
      Instant now = clock.instant();
      Optional<ToolCall> call = sql.first(connection, select, calls, sessionId, toolCallId);
      if (call.isEmpty() || !ToolCallTransitions.isDue(call.get(), now)) {
        return call;
      }
      if (!expire(connection, List.of(call.get()), now).isEmpty()) {
        return Optional.of(ToolCallTransitions.expired(call.get(), now));
      }
    }
  }

  /**
   * Sets or clears the deadline of a call that is pending and not due (the negation of
   * {@link ToolCallTransitions#isDue}, in SQL); returns whether it was.
   */
  private boolean setDeadline(Connection connection, String sessionId, String toolCallId, Instant deadline,
      Instant now) throws SQLException {
    String condition = deadline == null ? "deadline > ?" : "(deadline IS NULL OR deadline > ?)";
    return sql.update(connection, "UPDATE " + tables.toolCalls() + " SET deadline = ?, updated_at = ?"
        + " WHERE session_id = ? AND id = ? AND status = 'pending' AND " + condition,
        deadline, now, sessionId, toolCallId, now) == 1;
  }

  private void update(Connection connection, ToolCall call) throws SQLException {
    sql.update(connection, update, call.runId(), call.requestEventId(), call.toolName(), call.arguments(),
        column(call.status()), call.result(), call.deadline(), call.updatedAt(), call.sessionId(), call.id());
  }

  /** The parameters of {@link #insertNew}. */
  private static Object[] insertParameters(ToolCall call) {
    return new Object[] {call.id(), call.sessionId(), call.runId(), call.requestEventId(), call.toolName(),
        call.arguments(), column(call.status()), call.result(), call.deadline(), call.createdAt(), call.updatedAt()};
  }

  private static String column(ToolCallStatus status) {
    return status.name().toLowerCase(Locale.ROOT);
  }

  private static ToolCallStatus status(String column) {
    return ToolCallStatus.valueOf(column.toUpperCase(Locale.ROOT));
  }
}
