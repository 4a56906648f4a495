package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.spi.EventBatch;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Appends a batch to a session's log inside the caller's transaction, under the session's head lock: the one place
 * where seqs are assigned, shared by {@link JdbcEventLog} and agent steps ({@link StepCommitter}).
 *
 * <p><b>Fast path</b>, for the common case of new events: one statement takes the head lock (creating the session
 * if unknown), moves the head by the batch size and inserts the events after the old head
 * ({@link Dialect#appendAtHead}); the lock is held for that statement and the commit only. Replays take no error
 * path, as the database would log each error with its statement and the transaction would pay for a rollback. In
 * READ COMMITTED the statement reads its snapshot, taken when it starts, except that an upsert's or update's row
 * lock waits for the holder and then acts on the newest version of the head row. So the statement first looks up
 * the batch's ids in its snapshot and, if one is stored, neither locks nor moves the head: nothing was written, and
 * the locked path runs in the same transaction. An id the snapshot misses was committed after it, by a transaction
 * that held the head lock meanwhile; the event insert skips it ({@code ON CONFLICT DO NOTHING} checks the unique
 * (session, id) key against every committed row, without an error), and fewer inserted rows than the batch holds
 * make this transaction roll back the head move and take the locked path.
 *
 * <p><b>Locked path</b>, when the fast path appended nothing (a stored id, head not at the expected seq, unknown
 * session with an expected seq above 0) or skipped an id committed meanwhile (its transaction is rolled back
 * first): lock the head row ({@code SELECT … FOR NO KEY UPDATE}), or create the session, which locks it just the
 * same; read the stored events among the batch's ids
 * ({@code id = ANY(?)}) and let {@link EventBatch} sort replays from fresh events and reject reused ids; check the
 * expected seq; store the fresh events after the head. The id lookup must be a statement of its own after the
 * lock: in READ COMMITTED each statement sees the rows committed before it began, so only a statement that starts
 * once the lock is held sees the previous holder's events.
 */
final class EventAppender {

  private final Dialect dialect;
  private final Tables tables;
  private final ImplicitSession implicitSession;
  private final RowMapper<Event> events;
  private final String cut;

  EventAppender(Dialect dialect, Tables tables, ImplicitSession implicitSession) {
    this.dialect = dialect;
    this.tables = tables;
    this.implicitSession = implicitSession;
    this.events = EventRows.mapper(dialect);
    this.cut = "WITH cut_summaries AS ("
        + "DELETE FROM " + tables.summaries() + " WHERE session_id = ? AND to_seq >= ?"
        + "), head AS ("
        + "UPDATE " + tables.sessions() + " SET last_seq = least(last_seq, ?) WHERE id = ?"
        + "), cut AS ("
        + "DELETE FROM " + tables.events() + " WHERE session_id = ? AND seq >= ? RETURNING 1"
        + ") SELECT count(*) FROM cut";
  }

  /**
   * Checks, before any write, that the database can store the timestamps the batch brings.
   *
   * @throws dev.sessionstore.InvalidArgumentException naming the event's timestamp if one cannot be stored
   */
  void checkStorable(List<NewEvent> batch) {
    for (NewEvent event : batch) {
      if (event != null && event.timestamp() != null) {
        dialect.requireStorable("event.timestamp", event.timestamp());
      }
    }
  }

  /**
   * Appends a non-empty {@code batch} to {@code sessionId}, creating the session if unknown; returns one stored
   * event per input element. May roll back the caller's transaction before it writes anything that stays.
   *
   * @throws SeqConflictException if the batch holds a fresh event and the log does not end at {@code expected}
   */
  List<Event> append(Connection connection, String sessionId, EventBatch batch, OptionalLong expected, Instant now)
      throws SQLException {
    List<NewEvent> distinct = batch.distinctEvents();
    Optional<Dialect.HeadMove> moved = dialect.appendAtHead(connection, tables, sessionId, distinct, now, expected);
    if (moved.isPresent()) {
      if (moved.get().inserted() == distinct.size()) {
        return results(sessionId, moved.get().head(), batch, distinct, Map.of(), now);
      }
      // A previous holder of the head lock stored one of the ids after the statement's snapshot: undo the move.
      connection.rollback();
    }
    while (true) {
      OptionalLong head = lockHead(connection, sessionId);
      if (head.isPresent()) {
        return appendLocked(connection, sessionId, head.getAsLong(), batch, expected, now);
      }
      checkExpected(sessionId, expected, 0);
      if (Sql.update(connection, implicitSession.insert(), sessionId, now, now) == 1) {
        return appendLocked(connection, sessionId, 0, batch, expected, now);
      }
      // Another transaction created the session after our lookup; lock it like any existing one.
    }
  }

  /**
   * Appends {@code batch} to a session whose head row this transaction has locked at {@code head}.
   *
   * @throws SeqConflictException if the batch holds a fresh event and {@code head} is not {@code expected}
   */
  List<Event> appendLocked(Connection connection, String sessionId, long head, EventBatch batch,
      OptionalLong expected, Instant now) throws SQLException {
    Map<String, Event> stored = head == 0 ? Map.of() : storedWithIds(connection, sessionId, batch.ids());
    List<NewEvent> fresh = batch.fresh(stored);
    if (!fresh.isEmpty()) {
      checkExpected(sessionId, expected, head);
      dialect.appendAtLockedHead(connection, tables, sessionId, head, fresh, now);
    }
    return results(sessionId, head, batch, fresh, stored, now);
  }

  /**
   * Cuts the log of a session whose head this transaction has locked at {@code fromSeq}: that event and every later
   * one go, with every summary whose {@code toSeq >= fromSeq}, and the head moves back; returns how many events went.
   */
  int cut(Connection connection, String sessionId, long fromSeq) throws SQLException {
    return Sql.first(connection, cut, row -> row.getInt(1), sessionId, fromSeq, fromSeq - 1, sessionId, sessionId,
        fromSeq).orElse(0);
  }

  /** The session's events from {@code seq} to the end, oldest first. */
  List<Event> storedFrom(Connection connection, String sessionId, long seq) throws SQLException {
    return Sql.list(connection, "SELECT " + EventRows.COLUMNS + " FROM " + tables.events()
        + " WHERE session_id = ? AND seq >= ? ORDER BY seq", events, sessionId, seq);
  }

  /**
   * Appends {@code fresh} (distinct, none stored) after {@code head}, which this transaction has locked, and returns
   * them as stored.
   */
  List<Event> appendFresh(Connection connection, String sessionId, long head, List<NewEvent> fresh, Instant now)
      throws SQLException {
    if (fresh.isEmpty()) {
      return List.of();
    }
    dialect.appendAtLockedHead(connection, tables, sessionId, head, fresh, now);
    List<Event> appended = new ArrayList<>(fresh.size());
    long seq = head;
    for (NewEvent event : fresh) {
      appended.add(EventBatch.toStored(sessionId, event, ++seq, now));
    }
    return appended;
  }

  /** Locks the head row of {@code sessionId} until commit and returns its last seq; empty if unknown. */
  OptionalLong lockHead(Connection connection, String sessionId) throws SQLException {
    return Sql.first(connection,
            "SELECT last_seq FROM " + tables.sessions() + " WHERE id = ?" + dialect.lockForUpdate(),
            row -> row.getLong(1), sessionId)
        .map(OptionalLong::of).orElse(OptionalLong.empty());
  }

  /** One stored event per input element: the replayed ones as stored, the fresh ones as appended after head. */
  private static List<Event> results(String sessionId, long head, EventBatch batch, List<NewEvent> fresh,
      Map<String, Event> stored, Instant now) {
    Map<String, Event> all = new HashMap<>(stored);
    long seq = head;
    for (NewEvent event : fresh) {
      all.put(event.id(), EventBatch.toStored(sessionId, event, ++seq, now));
    }
    return List.copyOf(batch.results(all));
  }

  /** The session's stored events among {@code ids}, by id; read after the head lock is held. */
  Map<String, Event> storedWithIds(Connection connection, String sessionId, Collection<String> ids)
      throws SQLException {
    Map<String, Event> stored = new HashMap<>();
    for (Event event : Sql.list(connection, "SELECT " + EventRows.COLUMNS + " FROM " + tables.events()
        + " WHERE session_id = ? AND id = ANY(?)", events, sessionId, Sql.textArray(connection, ids))) {
      stored.put(event.id(), event);
    }
    return stored;
  }

  private static void checkExpected(String sessionId, OptionalLong expected, long actual) {
    if (expected.isPresent() && expected.getAsLong() != actual) {
      throw new SeqConflictException(sessionId, expected.getAsLong(), actual);
    }
  }
}
