package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Chapter;
import dev.sessionstore.Event;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Revival;
import dev.sessionstore.Summaries;
import dev.sessionstore.Summary;
import dev.sessionstore.spi.Failures;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Summaries on the summaries table. A revival or a chapter is one statement, so the summary and the events it
 * returns come from one snapshot: summary rows and event rows (the session's own and those it shares,
 * {@link LogView}) are read together ({@code UNION ALL}) and told apart by a {@code part} column.
 *
 * <p>Where the events start is known only once the summary is read, inside the statement, so the planner cannot
 * estimate how many follow and would assume a third of the session's log: on a long log that estimate alone prices
 * the plan past the point where PostgreSQL compiles it (JIT), which costs far more than the read. The statement
 * therefore returns one page of events in seq order, at most {@link #PAGE} and one more to tell that more follow;
 * with the page a constant of the SQL text, every plan's estimate is that page whatever the log's length, and the
 * scan is an index range scan that stops at the page. The rare revival or chapter longer than a page is read again
 * in one snapshot ({@link Database#snapshot}), its later pages from seqs the planner knows.
 */
final class JdbcSummaries implements Summaries {

  /** The most events one statement of a revival or chapter returns. */
  static final int PAGE = 1000;

  private static final String SUMMARY_COLUMNS = "session_id, to_seq, from_seq, content, version, created_at";

  /** Summary and event rows in one result: summaries carry to_seq as seq, content as payload, created_at as ts. */
  private static final String PART_COLUMNS = "session_id, seq, from_seq, id, type, run_id, agent_id, parent_id,"
      + " payload, version, ts";

  /** Which row of a combined result is which. */
  private enum Part { PREVIOUS_SUMMARY, SUMMARY, EVENT, LAST_SEQ }

  /** One row of a combined result: a summary, an event, or the session's last seq. */
  private record PartRow(Part part, Summary summary, Event event, long lastSeq) {
  }

  /** What a revival or chapter read: its summaries, and its events in seq order. */
  private static final class Parts {

    private Optional<Summary> previous = Optional.empty();
    private Summary summary;
    private final List<Event> events = new ArrayList<>();
    /** Whether events follow the last one read. */
    private boolean more;
    /** The session's last seq, read with the rest (a revival's part); 0 when not read or the session is unknown. */
    private long sessionLastSeq;

    Parts(List<PartRow> rows) {
      List<Event> page = new ArrayList<>();
      for (PartRow row : rows) {
        switch (row.part()) {
          case PREVIOUS_SUMMARY -> previous = Optional.of(row.summary());
          case SUMMARY -> summary = row.summary();
          case EVENT -> page.add(row.event());
          case LAST_SEQ -> sessionLastSeq = row.lastSeq();
        }
      }
      add(page);
    }

    /** Adds a page of at most {@link #PAGE} events, and one more when more follow. */
    void add(List<Event> page) {
      more = page.size() > PAGE;
      events.addAll(more ? page.subList(0, PAGE) : page);
    }

    long lastSeq() {
      return events.get(events.size() - 1).seq();
    }
  }

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final Sql sql;
  private final RowMapper<Summary> summaries;
  private final RowMapper<Event> events;
  private final RowMapper<PartRow> parts;
  private final String put;
  private final String store;
  private final String insert;
  private final String revive;
  private final String reviveAgent;
  private final String chapter;
  private final String chapterAgent;
  private final String nextPage;
  private final String nextPageAgent;
  private final LogView view;

  JdbcSummaries(Database database, Tables tables, Clock clock) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    Dialect dialect = database.dialect();
    this.sql = new Sql(dialect);
    this.summaries = row -> new Summary(row.getString("session_id"), row.getLong("from_seq"),
        row.getLong("to_seq"), dialect.readJson(row, "content"), row.getInt("version"),
        dialect.readInstant(row, "created_at"));
    this.events = EventRows.mapper(dialect);
    this.parts = row -> {
      Part part = Part.values()[row.getInt("part")];
      if (part == Part.EVENT) {
        return new PartRow(part, null, events.map(row), 0);
      }
      if (part == Part.LAST_SEQ) {
        return new PartRow(part, null, null, row.getLong("seq"));
      }
      return new PartRow(part, new Summary(row.getString("session_id"), row.getLong("from_seq"),
          row.getLong("seq"), dialect.readJson(row, "payload"), row.getInt("version"), dialect.readInstant(row, "ts")),
          null, 0);
    };
    String replace = "from_seq = excluded.from_seq, content = excluded.content, version = excluded.version,"
        + " created_at = excluded.created_at";
    // The share lock waits for a truncation (or append) holding the session's row and re-checks last_seq after it,
    // so a summary never lands past the end of a log that was just cut.
    this.put = "INSERT INTO " + tables.summaries() + " (" + SUMMARY_COLUMNS + ")"
        + " SELECT s.id, ?, ?, " + dialect.jsonParameter() + ", ?, ? FROM " + tables.sessions() + " s"
        + " WHERE s.id = ? AND s.last_seq >= ?" + dialect.lockForShare()
        + dialect.onConflictUpdate("session_id, to_seq", replace) + " RETURNING " + SUMMARY_COLUMNS;
    this.store = "INSERT INTO " + tables.summaries() + " (" + SUMMARY_COLUMNS + ")"
        + " VALUES (?, ?, ?, " + dialect.jsonParameter() + ", ?, ?)"
        + dialect.onConflictUpdate("session_id, to_seq", replace) + " RETURNING " + SUMMARY_COLUMNS;
    this.insert = "INSERT INTO " + tables.summaries() + " (" + SUMMARY_COLUMNS + ")"
        + " VALUES (?, ?, ?, " + dialect.jsonParameter() + ", ?, ?)";
    this.view = new LogView(dialect, tables);
    this.revive = revival(false);
    this.reviveAgent = revival(true);
    this.chapter = chapter(false);
    this.chapterAgent = chapter(true);
    this.nextPage = nextPage(false);
    this.nextPageAgent = nextPage(true);
  }

  /**
   * The latest summary, the first page of events after it, of one agent when {@code byAgent}, and the session's last
   * seq. Parameters: session id, then twice (the event part is a {@link LogView}) the session id and the agent id
   * when {@code byAgent}, then the session id.
   */
  private String revival(boolean byAgent) {
    return "WITH latest AS ("
        + "SELECT * FROM " + tables.summaries() + " WHERE session_id = ? ORDER BY to_seq DESC LIMIT 1"
        + ") " + summaryPart(Part.SUMMARY, "latest")
        + " UNION ALL " + eventPart(byAgent, "seq > coalesce((SELECT to_seq FROM latest), 0)")
        + " UNION ALL SELECT " + Part.LAST_SEQ.ordinal() + " AS part, id AS session_id, last_seq AS seq,"
        + " CAST(NULL AS bigint) AS from_seq, NULL AS id, NULL AS type, NULL AS run_id, NULL AS agent_id,"
        + " NULL AS parent_id, NULL AS payload, CAST(NULL AS integer) AS version, NULL AS ts FROM "
        + tables.sessions() + " WHERE id = ?"
        + " ORDER BY part, seq";
  }

  /**
   * The chapter closed by a summary, the first page of its events of one agent when {@code byAgent}. Parameters:
   * session id, to_seq, session id, to_seq, then twice (the event part is a {@link LogView}) the session id, the agent
   * id when {@code byAgent}, to_seq.
   */
  private String chapter(boolean byAgent) {
    return "WITH closing AS ("
        + "SELECT * FROM " + tables.summaries() + " WHERE session_id = ? AND to_seq = ?"
        + "), previous AS ("
        + "SELECT * FROM " + tables.summaries() + " WHERE session_id = ? AND to_seq < ?"
        + " ORDER BY to_seq DESC LIMIT 1"
        + ") " + summaryPart(Part.PREVIOUS_SUMMARY, "previous")
        + " UNION ALL " + summaryPart(Part.SUMMARY, "closing")
        + " UNION ALL " + eventPart(byAgent, "seq > coalesce((SELECT to_seq FROM previous), 0) AND seq <= ?"
        + " AND EXISTS (SELECT 1 FROM closing)")
        + " ORDER BY part, seq";
  }

  /**
   * The next page of events of a revival or chapter, of one agent when {@code byAgent}. Parameters, twice (a
   * {@link LogView}): session id, the agent id when {@code byAgent}, the seq the page starts after, the last seq it
   * may hold.
   */
  private String nextPage(boolean byAgent) {
    return view.select(EventRows.COLUMNS, (byAgent ? "agent_id = ? AND " : "") + "seq > ? AND seq <= ?", "seq",
        String.valueOf(PAGE + 1)) + " ORDER BY seq LIMIT " + (PAGE + 1);
  }

  private static String summaryPart(Part part, String source) {
    return "SELECT " + part.ordinal() + " AS part, session_id, to_seq AS seq, from_seq, NULL AS id, NULL AS type,"
        + " NULL AS run_id, NULL AS agent_id, NULL AS parent_id, content AS payload, version, created_at AS ts"
        + " FROM " + source;
  }

  /**
   * The first page of the session's events (its own and those it shares) that satisfy {@code range}, one more than
   * {@link #PAGE} when more follow, as rows of a combined result.
   */
  private String eventPart(boolean byAgent, String range) {
    return view.select(Part.EVENT.ordinal() + " AS part, session_id, seq, CAST(NULL AS bigint) AS from_seq, id,"
            + " type, run_id, agent_id, parent_id, payload, CAST(NULL AS integer) AS version, ts",
        (byAgent ? "agent_id = ? AND " : "") + range, "seq", String.valueOf(PAGE + 1));
  }

  @Override
  public Summary put(String sessionId, NewSummary summary) {
    Instant now = clock.instant();
    return database.autoCommit("store a summary of session " + sessionId, connection -> {
      Optional<Summary> stored = sql.first(connection, put, summaries, summary.toSeq(), summary.fromSeq(),
          summary.content(), summary.version(), now, sessionId, summary.toSeq());
      if (stored.isPresent()) {
        return stored.get();
      }
      long lastSeq = sql.first(connection, "SELECT last_seq FROM " + tables.sessions() + " WHERE id = ?",
          row -> row.getLong(1), sessionId).orElseThrow(() -> Failures.sessionNotFound(sessionId));
      throw Failures.summaryPastLastSeq(sessionId, summary.toSeq(), lastSeq);
    });
  }

  /**
   * Stores {@code summary} for a session whose row this transaction has locked, and whose log reaches the
   * summary's {@code toSeq} (the caller checked).
   */
  Summary store(Connection connection, String sessionId, NewSummary summary, Instant now) throws SQLException {
    return sql.first(connection, store, summaries, sessionId, summary.toSeq(), summary.fromSeq(), summary.content(),
        summary.version(), now).orElseThrow();
  }

  @Override
  public Optional<Summary> latest(String sessionId) {
    return database.read("read the latest summary of session " + sessionId, connection -> sql.first(
        connection, "SELECT " + SUMMARY_COLUMNS + " FROM " + tables.summaries()
            + " WHERE session_id = ? ORDER BY to_seq DESC LIMIT 1", summaries, sessionId));
  }

  @Override
  public List<Summary> list(String sessionId) {
    return database.read("list the summaries of session " + sessionId, connection -> list(connection, sessionId));
  }

  /** The session's summaries by ascending {@code toSeq}, read in the caller's transaction. */
  List<Summary> list(Connection connection, String sessionId) throws SQLException {
    return sql.list(connection, "SELECT " + SUMMARY_COLUMNS + " FROM " + tables.summaries()
        + " WHERE session_id = ? ORDER BY to_seq", summaries, sessionId);
  }

  /** Stores exported summaries as they are, in the caller's transaction. */
  void insertAll(Connection connection, List<Summary> stored) throws SQLException {
    if (stored.isEmpty()) {
      return;
    }
    List<Object[]> rows = new ArrayList<>(stored.size());
    for (Summary summary : stored) {
      rows.add(new Object[] {summary.sessionId(), summary.toSeq(), summary.fromSeq(), summary.content(),
          summary.version(), summary.createdAt()});
    }
    sql.updateEach(connection, insert, rows);
  }

  @Override
  public Revival revive(String sessionId) {
    Parts parts = read("revive session " + sessionId, revive,
        new Object[] {sessionId, sessionId, sessionId, sessionId}, sessionId, null, Long.MAX_VALUE);
    return new Revival(Optional.ofNullable(parts.summary), parts.events, parts.sessionLastSeq);
  }

  @Override
  public Revival revive(String sessionId, String agentId) {
    Parts parts = read("revive session " + sessionId + " for agent " + agentId, reviveAgent,
        new Object[] {sessionId, sessionId, agentId, sessionId, agentId, sessionId}, sessionId, agentId,
        Long.MAX_VALUE);
    return new Revival(Optional.ofNullable(parts.summary), parts.events, parts.sessionLastSeq);
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq) {
    return chapterOf(read("read a chapter of session " + sessionId, chapter,
        new Object[] {sessionId, summaryToSeq, sessionId, summaryToSeq, sessionId, summaryToSeq, sessionId,
            summaryToSeq}, sessionId, null,
        summaryToSeq));
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq, String agentId) {
    return chapterOf(read("read a chapter of session " + sessionId + " for agent " + agentId, chapterAgent,
        new Object[] {sessionId, summaryToSeq, sessionId, summaryToSeq, sessionId, agentId, summaryToSeq, sessionId,
            agentId, summaryToSeq},
        sessionId, agentId, summaryToSeq));
  }

  private static Optional<Chapter> chapterOf(Parts parts) {
    return parts.summary == null ? Optional.empty()
        : Optional.of(new Chapter(parts.summary, parts.previous, parts.events));
  }

  /**
   * Runs a revival or chapter {@code statement}: alone, in one round trip, when its events fit in one page; else in
   * one snapshot, followed by the later pages of the events of {@code agentId} (any agent when null) up to
   * {@code lastSeq}.
   */
  private Parts read(String action, String statement, Object[] parameters, String sessionId, String agentId,
      long lastSeq) {
    Parts first = database.read(action, connection -> new Parts(sql.list(connection, statement, parts, parameters)));
    if (!first.more) {
      return first;
    }
    return database.snapshot(action, connection -> {
      Parts all = new Parts(sql.list(connection, statement, parts, parameters));
      while (all.more) {
        all.add(agentId == null
            ? sql.list(connection, nextPage, events, sessionId, all.lastSeq(), lastSeq, sessionId, all.lastSeq(),
                lastSeq)
            : sql.list(connection, nextPageAgent, events, sessionId, agentId, all.lastSeq(), lastSeq, sessionId,
                agentId, all.lastSeq(), lastSeq));
      }
      return all;
    });
  }
}
