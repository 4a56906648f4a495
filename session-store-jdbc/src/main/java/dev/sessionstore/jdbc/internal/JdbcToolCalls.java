package dev.sessionstore.jdbc.internal;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Resolution;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.Expiry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Tool calls on the tool_calls table, deadlines included. Resolution is one conditional update from pending
 * ({@code WHERE status = 'pending' AND (deadline IS NULL OR deadline > now)}): the database serializes concurrent
 * updates of a row and re-checks the condition for each, so exactly one resolver gets the row back.
 *
 * <p>A call is due once the store clock reaches its deadline. Every read turns a due call it meets into an expired
 * one in the database before returning it ({@link #expire}), so what one read saw expired every later read sees
 * expired, whether or not the {@link DeadlineSweeper} got there first. The store clock's instant is always passed
 * as a parameter: the database's own time never decides.
 */
final class JdbcToolCalls implements ToolCalls {

  private static final String COLUMNS =
      "id, session_id, run_id, tool_name, arguments, status, result, deadline, created_at, updated_at";

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final RowMapper<ToolCall> calls;
  private final String selectForUpdate;
  private final String insert;
  private final String update;
  private final String resolve;
  private final String expire;

  JdbcToolCalls(Database database, Tables tables, Clock clock, ImplicitSession implicitSession) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    Dialect dialect = database.dialect();
    this.calls = row -> new ToolCall(
        row.getString("id"),
        row.getString("session_id"),
        row.getString("run_id"),
        row.getString("tool_name"),
        dialect.readJson(row, "arguments"),
        status(row.getString("status")),
        dialect.readJson(row, "result"),
        Sql.instant(row, "deadline"),
        Sql.instant(row, "created_at"),
        Sql.instant(row, "updated_at"));
    String json = dialect.jsonParameter();
    this.selectForUpdate = "SELECT " + COLUMNS + " FROM " + tables.toolCalls() + " WHERE id = ?"
        + dialect.lockForUpdate();
    this.insert = implicitSession.with() + "INSERT INTO " + tables.toolCalls() + " (" + COLUMNS + ")"
        + " VALUES (?, ?, ?, ?, " + json + ", ?, " + json + ", ?, ?, ?)" + dialect.onConflictIgnore("id");
    this.update = "UPDATE " + tables.toolCalls() + " SET run_id = ?, tool_name = ?, arguments = " + json
        + ", status = ?, result = " + json + ", deadline = ?, updated_at = ? WHERE id = ?";
    this.resolve = "UPDATE " + tables.toolCalls() + " SET status = ?, result = " + json
        + ", deadline = NULL, updated_at = ?"
        + " WHERE id = ? AND status = 'pending' AND (deadline IS NULL OR deadline > ?) RETURNING " + COLUMNS;
    // Expires the given due calls unless they changed since they were read (resolved, deadline reset).
    this.expire = "UPDATE " + tables.toolCalls() + " t SET status = 'expired', result = d.result::json,"
        + " deadline = NULL, updated_at = ?"
        + " FROM unnest(?::text[], ?::timestamptz[], ?::text[]) AS d(id, deadline, result)"
        + " WHERE t.id = d.id AND t.status = 'pending' AND t.deadline = d.deadline RETURNING t.id";
  }

  @Override
  public ToolCall save(ToolCallWrite call) {
    Arguments.requireNonNull("toolCall", call);
    return database.transaction("save tool call " + call.id(), connection -> {
      Instant now = clock.instant();
      while (true) {
        Optional<ToolCall> stored = Sql.first(connection, selectForUpdate, calls, call.id()).map(c -> seenAt(c, now));
        ToolCall merged = call.applyTo(stored.orElse(null), now);
        if (stored.isPresent()) {
          Sql.update(connection, update, merged.runId(), merged.toolName(), merged.arguments(),
              column(merged.status()), merged.result(), merged.deadline(), merged.updatedAt(), merged.id());
          return merged;
        }
        if (Sql.update(connection, insert, merged.sessionId(), now, now, merged.id(), merged.sessionId(),
            merged.runId(), merged.toolName(), merged.arguments(), column(merged.status()), null, null,
            merged.createdAt(), merged.updatedAt()) == 1) {
          return merged;
        }
        // Created by another transaction since our read: merge into that one instead.
      }
    });
  }

  @Override
  public Optional<ToolCall> find(String toolCallId) {
    Arguments.requireKey("toolCallId", toolCallId);
    return database.autoCommit("find tool call " + toolCallId, connection -> find(connection, toolCallId));
  }

  @Override
  public List<ToolCall> pending(String sessionId) {
    Arguments.requireKey("sessionId", sessionId);
    return database.autoCommit("list the pending tool calls of session " + sessionId, connection -> {
      Instant now = clock.instant();
      List<ToolCall> pending = Sql.list(connection, "SELECT " + COLUMNS + " FROM " + tables.toolCalls()
          + " WHERE session_id = ? AND status = 'pending' ORDER BY created_at, id", calls, sessionId);
      List<ToolCall> due = pending.stream().filter(call -> isDue(call, now)).toList();
      if (!due.isEmpty()) {
        expire(connection, due, now);
      }
      return pending.stream().filter(call -> !isDue(call, now)).toList();
    });
  }

  @Override
  public Resolution resolve(String toolCallId, ToolCallStatus status, Json result) {
    Arguments.requireKey("toolCallId", toolCallId);
    Arguments.requireNonNull("status", status);
    if (status == ToolCallStatus.PENDING || status == ToolCallStatus.EXPIRED) {
      throw new InvalidArgumentException("status",
          "a tool call is resolved to COMPLETED, FAILED or CANCELLED, not " + status);
    }
    Json stored = result == null ? Json.emptyObject() : result;
    return database.autoCommit("resolve tool call " + toolCallId, connection -> {
      Instant now = clock.instant();
      Optional<ToolCall> won = Sql.first(connection, resolve, calls, column(status), stored, now, toolCallId, now);
      if (won.isPresent()) {
        return new Resolution.Resolved(won.get());
      }
      return new Resolution.Stale(toolCallId, find(connection, toolCallId));
    });
  }

  @Override
  public boolean expireAt(String toolCallId, Instant deadline) {
    Arguments.requireKey("toolCallId", toolCallId);
    Instant storedDeadline = database.dialect().requireStorable("deadline",
        Arguments.requireInstant("deadline", deadline));
    return database.autoCommit("set the deadline of tool call " + toolCallId, connection -> {
      Instant now = clock.instant();
      if (setDeadline(connection, toolCallId, storedDeadline, now)) {
        return true;
      }
      if (find(connection, toolCallId).isEmpty()) {
        throw new NotFoundException("tool call", toolCallId);
      }
      return false;
    });
  }

  @Override
  public boolean expireAfter(String toolCallId, Duration timeout) {
    Arguments.requireNonNegative("timeout", timeout);
    Instant deadline;
    try {
      deadline = clock.instant().plus(timeout);
    } catch (DateTimeException | ArithmeticException e) {
      throw new InvalidArgumentException("timeout", timeout + " puts the deadline past any storable instant");
    }
    return expireAt(toolCallId, deadline);
  }

  @Override
  public boolean cancelDeadline(String toolCallId) {
    Arguments.requireKey("toolCallId", toolCallId);
    return database.autoCommit("cancel the deadline of tool call " + toolCallId, connection ->
        setDeadline(connection, toolCallId, null, clock.instant()));
  }

  /**
   * Expires {@code due} calls that are still pending with the deadline they were read with; returns the ids expired.
   * Shared with the {@link DeadlineSweeper}, so a sweep and a read expire a call alike and only once.
   */
  List<String> expire(Connection connection, List<ToolCall> due, Instant now) throws SQLException {
    List<String> ids = new ArrayList<>(due.size());
    List<Instant> deadlines = new ArrayList<>(due.size());
    List<String> results = new ArrayList<>(due.size());
    for (ToolCall call : due) {
      ids.add(call.id());
      deadlines.add(call.deadline());
      results.add(Expiry.result(call.deadline()).text());
    }
    return Sql.list(connection, expire, row -> row.getString(1), now, Sql.textArray(connection, ids),
        database.dialect().timestampArray(connection, deadlines), Sql.textArray(connection, results));
  }

  /** Selects up to {@code limit} due calls, locking them and skipping those another sweeper holds. */
  List<ToolCall> lockDue(Connection connection, Instant now, int limit) throws SQLException {
    return Sql.list(connection, "SELECT " + COLUMNS + " FROM " + tables.toolCalls()
        + " WHERE status = 'pending' AND deadline <= ? ORDER BY deadline LIMIT ? FOR UPDATE SKIP LOCKED",
        calls, now, limit);
  }

  /** The call as stored, expiring it first if it is due; re-reads when another writer changed it meanwhile. */
  private Optional<ToolCall> find(Connection connection, String toolCallId) throws SQLException {
    while (true) {
      Instant now = clock.instant();
      Optional<ToolCall> call = Sql.first(connection,
          "SELECT " + COLUMNS + " FROM " + tables.toolCalls() + " WHERE id = ?", calls, toolCallId);
      if (call.isEmpty() || !isDue(call.get(), now)) {
        return call;
      }
      if (!expire(connection, List.of(call.get()), now).isEmpty()) {
        return Optional.of(expired(call.get(), now));
      }
    }
  }

  /** Sets or clears the deadline of a call that is pending and not due; returns whether it was. */
  private boolean setDeadline(Connection connection, String toolCallId, Instant deadline, Instant now)
      throws SQLException {
    String condition = deadline == null ? "deadline > ?" : "(deadline IS NULL OR deadline > ?)";
    return Sql.update(connection, "UPDATE " + tables.toolCalls() + " SET deadline = ?, updated_at = ?"
        + " WHERE id = ? AND status = 'pending' AND " + condition, deadline, now, toolCallId, now) == 1;
  }

  /** {@code call} as a read at {@code now} must see it: expired if it was due. */
  private static ToolCall seenAt(ToolCall call, Instant now) {
    return isDue(call, now) ? expired(call, now) : call;
  }

  private static boolean isDue(ToolCall call, Instant now) {
    return call.status() == ToolCallStatus.PENDING && call.deadline() != null && !now.isBefore(call.deadline());
  }

  private static ToolCall expired(ToolCall call, Instant now) {
    return call.resolvedAs(ToolCallStatus.EXPIRED, Expiry.result(call.deadline()), now);
  }

  private static String column(ToolCallStatus status) {
    return status.name().toLowerCase(Locale.ROOT);
  }

  private static ToolCallStatus status(String column) {
    return ToolCallStatus.valueOf(column.toUpperCase(Locale.ROOT));
  }
}
