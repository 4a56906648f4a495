package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.spi.EventBatch;
import dev.sessionstore.spi.EventFilter;
import dev.sessionstore.spi.EventPaging;
import dev.sessionstore.spi.Failures;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
  private final Sql sql;
  private final RowMapper<Event> events;
  private final LogView view;
  private final String findById;

  JdbcEventLog(Database database, Tables tables, Clock clock, EventAppender appender, AppendNotifier notifier,
      SessionWait waiting) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    this.appender = appender;
    this.notifier = notifier;
    this.waiting = waiting;
    this.sql = new Sql(database.dialect());
    this.events = EventRows.mapper(database.dialect());
    this.view = new LogView(database.dialect(), tables);
    this.findById = view.select(EventRows.COLUMNS, "id = ?", null, null);
  }

  @Override
  public Event append(String sessionId, NewEvent event) {
    return appendAll(sessionId, List.of(event)).get(0);
  }

  @Override
  public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
    return appendAll(sessionId, List.of(event), expectedLastSeq).get(0);
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events) {
    return append(sessionId, events, OptionalLong.empty());
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq) {
    return append(sessionId, events, OptionalLong.of(expectedLastSeq));
  }

  private List<Event> append(String sessionId, List<NewEvent> events, OptionalLong expectedLastSeq) {
    EventBatch batch = EventBatch.of(sessionId, events);
    appender.checkStorable(events);
    if (batch.isEmpty()) {
      return List.of();
    }
    List<Event> stored = appender.append(sessionId, batch, expectedLastSeq, clock);
    notifier.appended(sessionId);
    return stored;
  }

  @Override
  public long lastSeq(String sessionId) {
    return database.read("read the last seq of session " + sessionId, connection ->
        sql.first(connection, "SELECT last_seq FROM " + tables.sessions() + " WHERE id = ?",
            row -> row.getLong(1), sessionId).orElse(0L));
  }

  @Override
  public Optional<Event> find(String sessionId, String eventId) {
    return database.read("find event " + eventId + " of session " + sessionId, connection ->
        sql.first(connection, findById, events, sessionId, eventId, sessionId, eventId));
  }

  @Override
  public EventPage read(String sessionId, EventQuery query) {
    return database.read("read session " + sessionId, connection -> read(connection, sessionId, query));
  }

  /**
   * Registers before the first read, so an append between that read and the wait still ends the wait; each wake-up
   * or poll interval re-reads. Never holds a connection while waiting. A re-read that fails retryably (a lost
   * connection, a database restart, a failover) is tried again with a backoff until the timeout ({@link SessionWait}),
   * and the listener wakes every waiter once it listens again; a timeout that passes while the database is down
   * returns the empty page as any timeout does. Only a failure that is not retryable is thrown.
   */
  @Override
  public EventPage await(String sessionId, EventQuery query, Duration timeout) {
    return waiting.await(sessionId, timeout,
        () -> database.readOnce("read session " + sessionId, connection -> read(connection, sessionId, query)),
        page -> !page.isEmpty(), new EventPage(List.of(), OptionalLong.empty()));
  }

  @Override
  public int truncate(String sessionId, long fromSeq) {
    // Not idempotent (a second cut may remove events appended since the first): a lost commit is settled by asking
    // the database whether it committed (PostgreSQL), else reported.
    UnknownOutcome<Integer> ifUnknown = database.dialect().knowsCommitStatus() ? UnknownOutcome.ownResult()
        : UnknownOutcome.report();
    return database.transaction("truncate session " + sessionId, ifUnknown, connection -> {
      long lastSeq = appender.lockLastSeqForCut(connection, sessionId, fromSeq)
          .orElseThrow(() -> Failures.sessionNotFound(sessionId));
      int removed = appender.cut(connection, sessionId, lastSeq, fromSeq);
      appender.dropCutRequestEvents(connection, sessionId);
      return removed;
    });
  }

  /**
   * The page {@code query} selects, from the session's own events and those it shares ({@link LogView}): its
   * conditions are the SQL twin of {@link EventFilter#matches}; each branch fetches at most the fetch limit in fetch
   * order, {@link LogView#merge} keeps the first of them, and {@link EventPaging} cuts the page. A {@code since} outside what a timestamp column stores
   * selects everything (before the earliest) or nothing (after the last).
   */
  EventPage read(Connection connection, String sessionId, EventQuery query) throws SQLException {
    Instant since = query.since();
    if (since != null && !database.dialect().isStorable(since)) {
      if (since.isAfter(database.dialect().earliestStorable())) {
        return new EventPage(List.of(), OptionalLong.empty()); // later than any timestamp stored
      }
      since = null; // earlier than any timestamp stored
    }
    StringBuilder condition = new StringBuilder("seq > ?");
    List<Object> parameters = new ArrayList<>(List.of(sessionId, query.after()));
    if (query.before().isPresent()) {
      condition.append(" AND seq < ?");
      parameters.add(query.before().getAsLong());
    }
    if (query.runId() != null) {
      condition.append(" AND run_id = ?");
      parameters.add(query.runId());
    }
    if (!query.types().isEmpty()) {
      condition.append(" AND ").append(database.dialect().isAnyOf("type"));
      parameters.add(database.dialect().textList(connection, query.types()));
    }
    if (query.agentId() != null) {
      condition.append(" AND agent_id = ?");
      parameters.add(query.agentId());
    }
    if (since != null) {
      condition.append(" AND ts >= ?");
      parameters.add(since);
    }
    boolean newestFirst = EventPaging.fetchesNewestFirst(query);
    OptionalLong fetchLimit = EventPaging.fetchLimit(query);
    // The limit is a constant of the text, not a parameter: PostgreSQL then plans the statement once per connection
    // (a generic plan from its sixth run on) instead of again on every run, which took longer than the read.
    String statement = view.select(EventRows.COLUMNS, condition.toString(), newestFirst ? "seq DESC" : "seq",
        fetchLimit.isPresent() ? Long.toString(fetchLimit.getAsLong()) : null);
    List<Event> rows = sql.list(connection, statement, events, LogView.parameters(parameters).toArray());
    return EventPaging.page(LogView.merge(rows, newestFirst, fetchLimit.orElse(Long.MAX_VALUE)), query);
  }
}
