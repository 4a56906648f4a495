package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.ReadDirection;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.EventBatch;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The event log on the events table. Appends go through {@link EventAppender} and are announced by
 * {@link AppendNotifier} once committed; reads are one statement each; waiting reads re-read when woken
 * ({@link SessionWait}).
 */
final class JdbcEventLog implements EventLog {

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final EventAppender appender;
  private final AppendNotifier notifier;
  private final SessionWait waiting;
  private final RowMapper<Event> events;

  JdbcEventLog(Database database, Tables tables, Clock clock, EventAppender appender, AppendNotifier notifier,
      SessionWait waiting) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    this.appender = appender;
    this.notifier = notifier;
    this.waiting = waiting;
    this.events = EventRows.mapper(database.dialect());
  }

  @Override
  public Event append(String sessionId, NewEvent event) {
    return appendAll(sessionId, List.of(Arguments.requireNonNull("event", event))).get(0);
  }

  @Override
  public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
    return appendAll(sessionId, List.of(Arguments.requireNonNull("event", event)), expectedLastSeq).get(0);
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events) {
    return append(sessionId, events, OptionalLong.empty());
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq) {
    Arguments.requireNonNegative("expectedLastSeq", expectedLastSeq);
    return append(sessionId, events, OptionalLong.of(expectedLastSeq));
  }

  private List<Event> append(String sessionId, List<NewEvent> events, OptionalLong expectedLastSeq) {
    EventBatch batch = EventBatch.of(sessionId, events);
    appender.checkStorable(events);
    database.ensureOpen();
    if (batch.isEmpty()) {
      return List.of();
    }
    List<Event> stored = database.transaction("append to session " + sessionId,
        connection -> appender.append(connection, sessionId, batch, expectedLastSeq, clock.instant()));
    notifier.appended(sessionId);
    return stored;
  }

  @Override
  public long latestSeq(String sessionId) {
    Arguments.requireKey("sessionId", sessionId);
    return database.read("read the latest seq of session " + sessionId, connection ->
        Sql.first(connection, "SELECT last_seq FROM " + tables.sessions() + " WHERE id = ?",
            row -> row.getLong(1), sessionId).orElse(0L));
  }

  @Override
  public Optional<Event> find(String sessionId, String eventId) {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireKey("eventId", eventId);
    return database.read("find event " + eventId + " of session " + sessionId, connection ->
        Sql.first(connection, "SELECT " + EventRows.COLUMNS + " FROM " + tables.events()
            + " WHERE session_id = ? AND id = ?", events, sessionId, eventId));
  }

  @Override
  public EventPage read(String sessionId, EventQuery query) {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNull("query", query);
    return database.read("read session " + sessionId, connection -> read(connection, sessionId, query));
  }

  /**
   * Registers before the first read, so an append between that read and the wait still ends the wait; each wake-up
   * or poll interval re-reads. Never holds a connection while waiting. A re-read that loses its connection (a
   * database restart, a failover) tries again until the timeout rather than failing, and the listener wakes every
   * waiter once it listens again; only a failure that outlasts the timeout, or one that is not about the connection,
   * is thrown.
   */
  @Override
  public EventPage await(String sessionId, EventQuery query, Duration timeout) {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNull("query", query);
    Arguments.requireNonNegative("timeout", timeout);
    return waiting.await(sessionId, timeout,
        deadline -> database.read("read session " + sessionId, deadline,
            connection -> read(connection, sessionId, query)),
        page -> !page.isEmpty(), new EventPage(List.of(), OptionalLong.empty()));
  }

  @Override
  public int truncate(String sessionId, long fromSeq) {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requirePositive("fromSeq", fromSeq);
    // Not idempotent (a second cut may remove events appended since the first) and its count is not stored: a lost
    // commit is reported.
    return database.transaction("truncate session " + sessionId, UnknownOutcome.report(), connection -> {
      if (appender.lockHead(connection, sessionId).isEmpty()) {
        throw new NotFoundException("session", sessionId);
      }
      return appender.cut(connection, sessionId, fromSeq);
    });
  }

  private EventPage read(Connection connection, String sessionId, EventQuery query) throws SQLException {
    Instant since = query.since();
    if (since != null && !database.dialect().isStorable(since)) {
      if (since.isAfter(database.dialect().earliestStorable())) {
        return new EventPage(List.of(), OptionalLong.empty()); // later than any timestamp stored
      }
      since = null; // earlier than any timestamp stored
    }
    StringBuilder sql = new StringBuilder("SELECT " + EventRows.COLUMNS + " FROM " + tables.events()
        + " WHERE session_id = ? AND seq > ?");
    List<Object> parameters = new ArrayList<>(List.of(sessionId, query.after()));
    if (query.before().isPresent()) {
      sql.append(" AND seq < ?");
      parameters.add(query.before().getAsLong());
    }
    if (query.runId() != null) {
      sql.append(" AND run_id = ?");
      parameters.add(query.runId());
    }
    if (!query.types().isEmpty()) {
      sql.append(" AND type = ANY(?)");
      parameters.add(Sql.textArray(connection, query.types()));
    }
    if (query.agentId() != null) {
      sql.append(" AND agent_id = ?");
      parameters.add(query.agentId());
    }
    if (since != null) {
      sql.append(" AND ts >= ?");
      parameters.add(since);
    }
    boolean newestFirst = query.direction() != ReadDirection.OLDEST_FIRST;
    sql.append(newestFirst ? " ORDER BY seq DESC" : " ORDER BY seq");
    if (query.limit().isPresent()) {
      sql.append(" LIMIT ?");
      parameters.add(query.limit().getAsInt() + 1L);
    }
    List<Event> rows = Sql.list(connection, sql.toString(), events, parameters.toArray());
    return page(rows, query);
  }

  /** Cuts the one-extra row that tells whether more remain, and orders the page as its direction says. */
  private static EventPage page(List<Event> rows, EventQuery query) {
    if (query.limit().isEmpty() || rows.size() <= query.limit().getAsInt()) {
      List<Event> items = query.direction() == ReadDirection.TAIL ? reversed(rows) : rows;
      return new EventPage(items, OptionalLong.empty());
    }
    List<Event> items = rows.subList(0, query.limit().getAsInt());
    Event last = items.get(items.size() - 1);
    return switch (query.direction()) {
      case OLDEST_FIRST, NEWEST_FIRST -> new EventPage(items, OptionalLong.of(last.seq()));
      case TAIL -> new EventPage(reversed(items), OptionalLong.of(last.seq()));
    };
  }

  private static List<Event> reversed(List<Event> events) {
    List<Event> copy = new ArrayList<>(events);
    Collections.reverse(copy);
    return copy;
  }

}
