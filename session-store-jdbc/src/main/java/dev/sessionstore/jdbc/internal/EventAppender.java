package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Event;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.spi.EventBatch;
import dev.sessionstore.spi.SearchText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Appends a batch to a session's log under the lock of the session's row, whose {@code last_seq} is the last seq of
 * the log: the one place where seqs are assigned, shared by {@link JdbcEventLog} and agent steps
 * ({@link StepCommitter}).
 *
 * <p><b>Fresh call</b>, where the dialect has {@linkplain Dialect#appendFreshInOneCall one}, first: one
 * auto-committed call (on PostgreSQL a function of the schema) moves the last seq of a session that is no fork and is
 * at the expected last seq, or creates an unknown session, and stores the events after the old last seq; when an
 * id is stored, the unique key finds it as the events are inserted, and the call undoes its writes (on PostgreSQL a
 * subtransaction rolled back for a batch, the session row moved back for one event), having written nothing. A batch of one event takes the dialect's
 * {@linkplain Dialect#appendOneFreshInOneCall call for one}, where it has one, with the event's columns bound as
 * scalars. Where it wrote nothing (a fork, another last seq, a stored id) the one call runs next and settles the
 * batch. Lost while it ran, it is run again: a second run after its commit finds an id stored (or the last seq
 * moved), writes nothing, and hands over to the one call, which reports the batch stored.
 *
 * <p><b>One call</b>, where the dialect has {@linkplain Dialect#appendInOneCall one}, for every case the fresh call
 * leaves (or first, where there is none): one auto-committed statement (on PostgreSQL a function of the schema) locks
 * the session's row by moving its last seq by the batch size (creating the session if unknown), stores the events
 * after the old last seq and commits: one round trip, the lock held for that statement and its commit only. Each statement inside the call sees every row
 * committed before it began, so once it holds the lock it sees the previous holder's events; an id already stored
 * is skipped by the insert's conflict clause, without an error, and the call then undoes its own writes and reports
 * the last seq and the stored events among the batch's ids instead. With those, {@link EventBatch} settles a replay
 * (every id stored with the same content: the stored events are the answer), a reused id (a
 * {@link dev.sessionstore.DuplicateEventException}) and an unexpected last seq (a {@link SeqConflictException});
 * only a batch that mixes stored and fresh events, or a last seq that moved back to the expected one meanwhile,
 * runs the locked path after it. Lost while it ran, the call is settled by running it again: it is idempotent, a
 * second run finds the batch stored and reports it.
 *
 * <p><b>Short transaction</b>, where the dialect {@linkplain Dialect#beginOwnWrites() begins write transactions by a
 * statement} instead (SQLite), for the common case: on a connection in auto-commit, begin (taking the write lock),
 * move the session's last seq by the batch size and read it back ({@code UPDATE ... RETURNING}), insert the events
 * after the old last seq skipping, by the id key's conflict clause, any id stored, write their rows of the search
 * table in one statement ({@link SearchRows}), and commit: five statements, one more than the plainest atomic
 * append. Where the session is unknown, the last seq is not the expected one, the
 * session is a fork holding one of the ids in its shared prefix, or the insert skipped an id, it rolls back, having
 * changed nothing, and the locked path runs, which settles each of those. Run again after a lost commit, it finds
 * its ids stored and hands over to the locked path, which reports them.
 *
 * <p><b>Locked path</b>, in one transaction, the only one where the dialect has neither: lock the session's
 * row ({@link Dialect#lockForUpdate()}), or create the session, which locks it just the same; read the stored events
 * among the batch's ids (a session that is no fork, its shared seq 0, has no segments: its own rows alone, by the
 * id key, without the fork's union of {@link LogView}) and let {@link EventBatch} sort replays from fresh events and
 * reject reused ids; check the expected seq; store the fresh events after the last seq and move it. The id lookup must be a statement of its own
 * after the lock: in READ COMMITTED each statement sees the rows committed before it began, so only a statement
 * that starts once the lock is held sees the previous holder's events.
 */
final class EventAppender {

  /**
   * The most payload chars one batch of {@link #storeLog} carries: at most 192 MiB even when every char takes 3 bytes
   * (and escaping doubles some), far below PostgreSQL's 1 GB per statement, so a log of any length is stored in
   * statements the database takes.
   */
  static final long MAX_BATCH_CHARS = 64L * 1024 * 1024;

  private final Database database;
  private final Dialect dialect;
  private final Tables tables;
  private final ImplicitSession implicitSession;
  private final Sql sql;
  private final RowMapper<Event> events;
  private final Optional<String> appendFreshInOneCall;
  private final Optional<String> appendOneFreshInOneCall;
  private final Optional<String> appendInOneCall;
  private final Optional<String> beginOwnWrites;
  /** Whether the events table has the dialect's column of search words ({@link Dialect#wordsColumn()}). */
  private final boolean storesWords;
  /** Moves a session's last seq by a batch's size and returns the new one and its shared seq. */
  private final String moveHead;
  /** Inserts a batch after a last seq, skipping every id the session's own rows hold. */
  private final String insertUnlessStored;
  private final WriteChain appendLocked;
  private final WriteChain cut;
  private final Dependents dependents;
  /** The search index of the events stored, where the store writes it itself. */
  private final SearchRows searchRows;
  private final LogView view;
  private final String storedWithIds;
  /** The stored events among a list of ids of a session that is no fork: its own rows only, by the id key. */
  private final String ownWithIds;
  private final String lockHead;
  private final String storedFrom;
  /** The requesting events the session's tool calls name. */
  private final String requestEvents;
  /** Drops the requesting event of the session's calls that name one of a list of ids. */
  private final String dropRequestEvents;

  EventAppender(Database database, Tables tables, ImplicitSession implicitSession) {
    this.database = database;
    this.dialect = database.dialect();
    this.tables = tables;
    this.implicitSession = implicitSession;
    this.sql = new Sql(dialect);
    this.events = EventRows.mapper(dialect);
    this.appendFreshInOneCall = dialect.appendFreshInOneCall(tables);
    this.appendOneFreshInOneCall = dialect.appendOneFreshInOneCall(tables);
    this.appendInOneCall = dialect.appendInOneCall(tables);
    this.beginOwnWrites = dialect.beginOwnWrites();
    this.storesWords = dialect.wordsColumn().isPresent();
    this.moveHead = "UPDATE " + tables.sessions() + " SET last_seq = last_seq + ? WHERE id = ?"
        + " RETURNING last_seq, shared_seq";
    Optional<String> words = dialect.wordsColumn();
    this.insertUnlessStored = "INSERT INTO " + tables.events()
        + " (session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts" + words.map(c -> ", " + c).orElse("")
        + ") VALUES (?, ?, ?, ?, ?, ?, ?, " + dialect.jsonParameter() + ", ?"
        + words.map(c -> ", " + dialect.indexedWords("?")).orElse("") + ")"
        + dialect.onConflictIgnore("session_id, id");
    this.appendLocked = WriteChain.before(dialect, List.of("INSERT INTO " + tables.events()
            + " (session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts" + words.map(c -> ", " + c)
            .orElse("") + ") SELECT ?, ? + e.ordinality, e.id, e.type, e.run_id, e.agent_id, e.parent_id, e.payload,"
            + " e.ts" + words.map(c -> ", " + dialect.indexedWords("e.words")).orElse("")
            + " FROM " + dialect.eventRows("e")),
        "UPDATE " + tables.sessions() + " SET last_seq = ? WHERE id = ?");
    // The log's own rows, summaries and segments from the cut on go; a segment across the cut is shortened.
    this.cut = WriteChain.after(dialect, "DELETE FROM " + tables.events() + " WHERE session_id = ? AND seq >= ?",
        List.of("DELETE FROM " + tables.summaries() + " WHERE session_id = ? AND to_seq >= ?",
            "UPDATE " + tables.sessions() + " SET last_seq = ?,"
                + " shared_seq = CASE WHEN shared_seq < ? THEN shared_seq ELSE ? END,"
                + " cut_seq = CASE WHEN cut_seq < ? THEN cut_seq ELSE ? END WHERE id = ?",
            "DELETE FROM " + tables.segments() + " WHERE session_id = ? AND from_seq >= ?",
            "UPDATE " + tables.segments() + " SET to_seq = ? WHERE session_id = ? AND from_seq < ? AND to_seq >= ?"));
    this.dependents = new Dependents(dialect, tables);
    this.searchRows = new SearchRows(dialect, tables);
    this.view = new LogView(dialect, tables);
    this.storedWithIds = view.select(EventRows.COLUMNS, dialect.isAnyOf("id"), null, null);
    this.ownWithIds = "SELECT " + EventRows.COLUMNS + " FROM " + tables.events() + " WHERE session_id = ? AND "
        + dialect.isAnyOf("id");
    this.lockHead = "SELECT last_seq, shared_seq FROM " + tables.sessions() + " WHERE id = ?" + dialect.lockForUpdate();
    this.storedFrom = view.select(EventRows.COLUMNS, "seq >= ?", "seq", null);
    this.requestEvents = "SELECT DISTINCT request_event_id FROM " + tables.toolCalls()
        + " WHERE session_id = ? AND request_event_id IS NOT NULL";
    this.dropRequestEvents = "UPDATE " + tables.toolCalls() + " SET request_event_id = NULL WHERE session_id = ? AND "
        + dialect.isAnyOf("request_event_id");
  }

  /**
   * Checks, before any write, that the database can store the timestamps the batch brings.
   *
   * @throws dev.sessionstore.InvalidArgumentException naming the event's timestamp if one cannot be stored
   */
  void checkStorable(List<NewEvent> batch) {
    for (NewEvent event : batch) {
      if (event.timestamp() != null) {
        dialect.requireStorable("event.timestamp", event.timestamp());
      }
    }
  }

  /**
   * Appends a non-empty {@code batch} to {@code sessionId} and commits, creating the session if unknown; returns one
   * stored event per input element.
   *
   * @throws SeqConflictException if the batch holds a fresh event and the log does not end at {@code expected}
   * @throws dev.sessionstore.DuplicateEventException if a stored event has one of the ids with other content
   */
  List<Event> append(String sessionId, EventBatch batch, OptionalLong expected, Clock clock) {
    String action = "append to session " + sessionId;
    if (appendFreshInOneCall.isPresent()) {
      Optional<List<Event>> appended = database.autoCommit(action, connection -> appendFreshInOneCall(connection,
          sessionId, batch, expected, clock.instant()));
      if (appended.isPresent()) {
        return appended.get();
      }
    }
    if (appendInOneCall.isPresent()) {
      Optional<List<Event>> appended = database.autoCommit(action,
          connection -> appendInOneCall(connection, appendInOneCall.get(), sessionId, batch, expected,
              clock.instant()));
      if (appended.isPresent()) {
        return appended.get();
      }
    }
    if (beginOwnWrites.isPresent()) {
      Optional<List<Event>> appended = database.ownTransaction(action,
          connection -> appendInShortTransaction(connection, beginOwnWrites.get(), sessionId, batch, expected,
              clock.instant()));
      if (appended.isPresent()) {
        return appended.get();
      }
    }
    return database.transaction(action, connection -> {
      Instant now = clock.instant();
      while (true) {
        Optional<Head> head = lockHead(connection, sessionId);
        if (head.isPresent()) {
          return appendLocked(connection, sessionId, head.get().lastSeq(), head.get().fork(), batch, expected, now);
        }
        checkExpected(sessionId, expected, 0);
        if (implicitSession.create(connection, sessionId, now)) {
          return appendLocked(connection, sessionId, 0, false, batch, expected, now);
        }
        // Another transaction created the session after our lookup; lock it like any existing one.
      }
    });
  }

  /**
   * The fresh call: the stored events for the whole batch, all appended; or empty, with nothing written, when the
   * paths after it must settle the batch (a fork, an unexpected last seq, a stored id).
   */
  private Optional<List<Event>> appendFreshInOneCall(Connection connection, String sessionId, EventBatch batch,
      OptionalLong expected, Instant now) throws SQLException {
    List<NewEvent> distinct = batch.distinctEvents();
    Optional<Long> lastSeq;
    if (distinct.size() == 1 && appendOneFreshInOneCall.isPresent()) {
      lastSeq = appendOneFreshInOneCall(connection, appendOneFreshInOneCall.get(), sessionId, distinct.get(0),
          expected, now);
    } else {
      lastSeq = sql.first(connection, appendFreshInOneCall.orElseThrow(),
          row -> Optional.ofNullable(row.getObject(1, Long.class)),
          callParameters(connection, sessionId, expected, now, distinct)).flatMap(seq -> seq);
    }
    return lastSeq.map(seq -> results(sessionId, seq, batch, distinct, Map.of(), now));
  }

  /**
   * The fresh call for one event: the last seq before it, or empty when the call wrote nothing. Each parameter is
   * bound with its type also when null, so that the statement the driver prepared on the server keeps serving every
   * call, whichever of the event's optional columns it fills.
   */
  private Optional<Long> appendOneFreshInOneCall(Connection connection, String statement, String sessionId,
      NewEvent event, OptionalLong expected, Instant now) throws SQLException {
    try (PreparedStatement call = connection.prepareStatement(statement)) {
      call.setString(1, sessionId);
      if (expected.isPresent()) {
        call.setLong(2, expected.getAsLong());
      } else {
        call.setNull(2, Types.BIGINT);
      }
      dialect.bindInstant(call, 3, now);
      call.setString(4, event.id());
      call.setString(5, event.type());
      call.setString(6, event.runId());
      call.setString(7, event.agentId());
      call.setString(8, event.parentId());
      call.setString(9, event.payload().text());
      if (event.timestamp() != null) {
        dialect.bindInstant(call, 10, event.timestamp());
      } else {
        call.setNull(10, Types.TIMESTAMP_WITH_TIMEZONE);
      }
      if (storesWords) {
        call.setString(11, SearchText.indexText(event.payload()));
      }
      try (ResultSet row = call.executeQuery()) {
        row.next();
        long lastSeq = row.getLong(1);
        return row.wasNull() ? Optional.empty() : Optional.of(lastSeq);
      }
    }
  }

  /**
   * The one call: the stored events for the whole batch, or empty when the locked path must run (a batch of stored
   * and fresh events, or a last seq that is the expected one after all).
   */
  private Optional<List<Event>> appendInOneCall(Connection connection, String statement, String sessionId,
      EventBatch batch, OptionalLong expected, Instant now) throws SQLException {
    List<NewEvent> distinct = batch.distinctEvents();
    List<CallRow> rows = sql.list(connection, statement, row -> new CallRow(row.getBoolean("appended"),
        row.getLong("last_seq"), row.getObject("seq") == null ? null : events.map(row)),
        callParameters(connection, sessionId, expected, now, distinct));
    long lastSeq = rows.get(0).lastSeq();
    if (rows.get(0).appended()) {
      return Optional.of(results(sessionId, lastSeq, batch, distinct, Map.of(), now));
    }
    Map<String, Event> stored = new HashMap<>();
    for (CallRow row : rows) {
      if (row.event() != null) {
        stored.put(row.event().id(), row.event());
      }
    }
    List<NewEvent> fresh = batch.fresh(stored);
    if (fresh.isEmpty()) {
      return Optional.of(batch.results(stored));
    }
    checkExpected(sessionId, expected, lastSeq);
    return Optional.empty();
  }

  /** The parameters of both append calls: session id, expected last seq ({@code null}: any), now, the event rows. */
  private Object[] callParameters(Connection connection, String sessionId, OptionalLong expected, Instant now,
      List<NewEvent> distinct) throws SQLException {
    List<Object> parameters = new ArrayList<>(List.of(sessionId));
    parameters.add(expected.isPresent() ? expected.getAsLong() : null);
    parameters.add(now);
    parameters.addAll(dialect.eventRowsParameters(connection, distinct, now));
    return parameters.toArray();
  }

  /**
   * The short transaction: the stored events for the whole batch, all appended; or empty, with nothing changed, when
   * the locked path must run (an unknown session, an unexpected last seq, an id stored).
   */
  private Optional<List<Event>> appendInShortTransaction(Connection connection, String begin, String sessionId,
      EventBatch batch, OptionalLong expected, Instant now) throws SQLException {
    List<NewEvent> distinct = batch.distinctEvents();
    try (Statement control = connection.createStatement()) {
      control.execute(begin);
      try {
        Optional<Head> moved = sql.first(connection, moveHead, row -> new Head(row.getLong(1), row.getLong(2) > 0),
            (long) distinct.size(), sessionId);
        if (moved.isEmpty()) {
          return rolledBack(control);
        }
        long lastSeq = moved.get().lastSeq() - distinct.size();
        if (expected.isPresent() && expected.getAsLong() != lastSeq
            || moved.get().fork() && !storedWithIds(connection, sessionId, batch.ids()).isEmpty()) {
          return rolledBack(control);
        }
        if (insertUnlessStored(connection, sessionId, lastSeq, distinct, now) != distinct.size()) {
          return rolledBack(control);
        }
        searchRows.indexStored(connection, sessionId, lastSeq, distinct);
        control.execute("COMMIT");
        return Optional.of(results(sessionId, lastSeq, batch, distinct, Map.of(), now));
      } catch (SQLException | RuntimeException e) {
        try {
          control.execute("ROLLBACK");
        } catch (SQLException again) {
          e.addSuppressed(again); // no transaction left to roll back: the database ended it with the failure
        }
        throw e;
      }
    }
  }

  /**
   * Inserts {@code events} after {@code lastSeq}, one prepared insert (a JDBC batch of it for more than one event),
   * each skipped if its id is stored; returns how many it inserted.
   */
  private int insertUnlessStored(Connection connection, String sessionId, long lastSeq, List<NewEvent> events,
      Instant now) throws SQLException {
    List<Object[]> rows = new ArrayList<>(events.size());
    long seq = lastSeq;
    for (NewEvent event : events) {
      List<Object> row = new ArrayList<>(List.of(sessionId, ++seq, event.id(), event.type()));
      row.addAll(Arrays.asList(event.runId(), event.agentId(), event.parentId()));
      row.addAll(List.of(event.payload(), event.timestamp() == null ? now : event.timestamp()));
      if (storesWords) {
        row.add(SearchText.indexText(event.payload()));
      }
      rows.add(row.toArray());
    }
    if (rows.size() == 1) {
      return sql.update(connection, insertUnlessStored, rows.get(0));
    }
    int inserted = 0;
    for (int count : sql.updateEach(connection, insertUnlessStored, rows)) {
      inserted += count;
    }
    return inserted;
  }

  private static <T> Optional<T> rolledBack(Statement control) throws SQLException {
    control.execute("ROLLBACK");
    return Optional.empty();
  }

  /** A row of the one call: whether it appended, the last seq, and a stored event (or {@code null}). */
  private record CallRow(boolean appended, long lastSeq, Event event) {
  }

  /**
   * Appends {@code batch} to a session whose row this transaction has locked, its last seq at {@code lastSeq}.
   *
   * @throws SeqConflictException if the batch holds a fresh event and {@code lastSeq} is not {@code expected}
   */
  private List<Event> appendLocked(Connection connection, String sessionId, long lastSeq, boolean fork,
      EventBatch batch, OptionalLong expected, Instant now) throws SQLException {
    Map<String, Event> stored = lastSeq == 0 ? Map.of()
        : fork ? storedWithIds(connection, sessionId, batch.ids())
        : byId(sql.list(connection, ownWithIds, events, sessionId, dialect.textList(connection, batch.ids())));
    List<NewEvent> fresh = batch.fresh(stored);
    if (!fresh.isEmpty()) {
      checkExpected(sessionId, expected, lastSeq);
      storeAfter(connection, sessionId, lastSeq, fresh, now);
    }
    return results(sessionId, lastSeq, batch, fresh, stored, now);
  }

  /**
   * Cuts the log of a session whose row this transaction has locked with {@link #lockLastSeqForCut} (from
   * {@code fromSeq} or earlier), its last seq at {@code lastSeq}: the event at
   * {@code fromSeq} and every later one go, with every summary whose {@code toSeq >= fromSeq}, and the last seq moves
   * back; returns how many events went. Forks that share the events that go keep them ({@link Dependents}); the
   * session's own segments stop at the cut.
   */
  int cut(Connection connection, String sessionId, long lastSeq, long fromSeq) throws SQLException {
    if (fromSeq > lastSeq) {
      return 0;
    }
    dependents.keepWhole(connection, List.of(sessionId), fromSeq);
    cut.update(connection, new Object[] {sessionId, fromSeq}, new Object[] {sessionId, fromSeq},
        new Object[] {fromSeq - 1, fromSeq - 1, fromSeq - 1, fromSeq - 1, fromSeq - 1, sessionId},
        new Object[] {sessionId, fromSeq},
        new Object[] {fromSeq - 1, sessionId, fromSeq, fromSeq});
    return (int) (lastSeq - fromSeq + 1);
  }

  /**
   * Drops the requesting event of every tool call of the session whose event the log no longer holds: what a cut of
   * the log does last, after a step's own calls are stored, so that no call names an event its log does not hold.
   */
  void dropCutRequestEvents(Connection connection, String sessionId) throws SQLException {
    List<String> named = sql.list(connection, requestEvents, row -> row.getString(1), sessionId);
    if (named.isEmpty()) {
      return;
    }
    Map<String, Event> held = storedWithIds(connection, sessionId, named);
    List<String> cut = named.stream().filter(eventId -> !held.containsKey(eventId)).toList();
    if (!cut.isEmpty()) {
      sql.update(connection, dropRequestEvents, sessionId, dialect.textList(connection, cut));
    }
  }

  /** The session's events from {@code seq} to the end, its own and those it shares, oldest first. */
  List<Event> storedFrom(Connection connection, String sessionId, long seq) throws SQLException {
    return LogView.merge(sql.list(connection, storedFrom, events, LogView.parameters(List.of(sessionId, seq))
        .toArray()), false, Long.MAX_VALUE);
  }

  /**
   * Appends {@code fresh} (distinct, none stored) after {@code lastSeq} in a session whose row this transaction has
   * locked, and returns them as stored.
   */
  List<Event> appendFresh(Connection connection, String sessionId, long lastSeq, List<NewEvent> fresh, Instant now)
      throws SQLException {
    if (fresh.isEmpty()) {
      return List.of();
    }
    storeAfter(connection, sessionId, lastSeq, fresh, now);
    List<Event> appended = new ArrayList<>(fresh.size());
    long seq = lastSeq;
    for (NewEvent event : fresh) {
      appended.add(EventBatch.toStored(sessionId, event, ++seq, now));
    }
    return appended;
  }

  /**
   * Stores {@code log}, the whole log of a session this transaction has just created with last seq {@code cutSeq}
   * (seqs gapless from {@code cutSeq + 1}, every event with its timestamp), in batches of at most {@link Limits#MAX_BATCH_SIZE} events and
   * {@link #MAX_BATCH_CHARS} chars of payload, and moves the last seq to the last event's.
   */
  void storeLog(Connection connection, String sessionId, long cutSeq, List<Event> log, Instant now)
      throws SQLException {
    int from = 0;
    while (from < log.size()) {
      int to = from;
      long chars = 0;
      while (to < log.size() && to - from < Limits.MAX_BATCH_SIZE
          && (to == from || chars + log.get(to).payload().text().length() <= MAX_BATCH_CHARS)) {
        chars += log.get(to).payload().text().length();
        to++;
      }
      storeAfter(connection, sessionId, cutSeq + from, log.subList(from, to).stream().map(EventAppender::asNew).toList(), now);
      from = to;
    }
  }

  /** A stored event as the event to store again: same id, content and timestamp. */
  private static NewEvent asNew(Event event) {
    return new NewEvent(event.id(), event.type(), event.runId(), event.agentId(), event.parentId(), event.payload(),
        event.timestamp());
  }

  /** A session's last seq, and whether it is a fork (it shares events through segments: a shared seq above 0). */
  private record Head(long lastSeq, boolean fork) {
  }

  /** Locks the row of {@code sessionId} until commit and returns its head; empty if unknown. */
  private Optional<Head> lockHead(Connection connection, String sessionId) throws SQLException {
    return sql.first(connection, lockHead, row -> new Head(row.getLong(1), row.getLong(2) > 0), sessionId);
  }

  /**
   * Locks until commit the rows of {@code sessionId} and of every session sharing its events from {@code fromSeq}
   * on, all together in id order ({@link Dependents#lockTogether}), as a transaction that may cut the session's log
   * must before it takes any other session lock; returns the session's last seq, empty if unknown.
   */
  OptionalLong lockLastSeqForCut(Connection connection, String sessionId, long fromSeq) throws SQLException {
    if (dependents.lockTogether(connection, List.of(sessionId), fromSeq).isEmpty()) {
      return OptionalLong.empty();
    }
    return lockLastSeq(connection, sessionId);
  }

  /** Locks the row of {@code sessionId} until commit and returns its last seq; empty if unknown. */
  OptionalLong lockLastSeq(Connection connection, String sessionId) throws SQLException {
    return sql.first(connection,
            "SELECT last_seq FROM " + tables.sessions() + " WHERE id = ?" + dialect.lockForUpdate(),
            row -> row.getLong(1), sessionId)
        .map(OptionalLong::of).orElse(OptionalLong.empty());
  }

  /**
   * The session's stored events among {@code ids}, its own and those it shares, by id; read after the session's row
   * is locked.
   */
  Map<String, Event> storedWithIds(Connection connection, String sessionId, Collection<String> ids)
      throws SQLException {
    Object list = dialect.textList(connection, ids);
    return byId(sql.list(connection, storedWithIds, events, sessionId, list, sessionId, list));
  }

  private static Map<String, Event> byId(List<Event> found) {
    Map<String, Event> stored = new HashMap<>();
    for (Event event : found) {
      stored.put(event.id(), event);
    }
    return stored;
  }

  /**
   * Inserts {@code fresh} after {@code lastSeq}, which this transaction has locked, moves the last seq, and indexes
   * them where the store writes the search index itself.
   */
  private void storeAfter(Connection connection, String sessionId, long lastSeq, List<NewEvent> fresh, Instant now)
      throws SQLException {
    List<Object> rows = new ArrayList<>(List.of(sessionId, lastSeq));
    rows.addAll(dialect.eventRowsParameters(connection, fresh, now));
    appendLocked.update(connection, rows.toArray(), new Object[] {lastSeq + fresh.size(), sessionId});
    searchRows.indexStored(connection, sessionId, lastSeq, fresh);
  }

  /** One stored event per input element: the replayed ones as stored, the fresh ones as appended after lastSeq. */
  private static List<Event> results(String sessionId, long lastSeq, EventBatch batch, List<NewEvent> fresh,
      Map<String, Event> stored, Instant now) {
    if (stored.isEmpty() && fresh.size() == 1) {
      NewEvent event = fresh.get(0);
      return batch.results(Map.of(event.id(), EventBatch.toStored(sessionId, event, lastSeq + 1, now)));
    }
    Map<String, Event> all = new HashMap<>(stored);
    long seq = lastSeq;
    for (NewEvent event : fresh) {
      all.put(event.id(), EventBatch.toStored(sessionId, event, ++seq, now));
    }
    return List.copyOf(batch.results(all));
  }

  private static void checkExpected(String sessionId, OptionalLong expected, long actual) {
    if (expected.isPresent() && expected.getAsLong() != actual) {
      throw new SeqConflictException(sessionId, expected.getAsLong(), actual);
    }
  }
}
