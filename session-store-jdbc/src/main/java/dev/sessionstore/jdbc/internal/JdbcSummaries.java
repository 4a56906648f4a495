package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Chapter;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewSummary;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Revival;
import dev.sessionstore.Summaries;
import dev.sessionstore.Summary;
import dev.sessionstore.spi.Arguments;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Summaries on the summaries table. A revival or a chapter is one statement, so the summary and the events it
 * returns come from one snapshot: summary rows and event rows are read together ({@code UNION ALL}) and told apart
 * by a {@code part} column.
 */
final class JdbcSummaries implements Summaries {

  private static final String SUMMARY_COLUMNS = "session_id, to_seq, from_seq, content, version, created_at";

  /** Summary and event rows in one result: summaries carry to_seq as seq, content as payload, created_at as ts. */
  private static final String PART_COLUMNS = "session_id, seq, from_seq, id, type, run_id, agent_id, parent_id,"
      + " payload, version, ts";

  /** Which row of a combined result is which. */
  private enum Part { PREVIOUS_SUMMARY, SUMMARY, EVENT }

  private record PartRow(Part part, Summary summary, Event event) {
  }

  private final Database database;
  private final Tables tables;
  private final Clock clock;
  private final RowMapper<Summary> summaries;
  private final RowMapper<PartRow> parts;
  private final String put;
  private final String store;
  private final String revive;
  private final String reviveAgent;
  private final String chapter;
  private final String chapterAgent;

  JdbcSummaries(Database database, Tables tables, Clock clock) {
    this.database = database;
    this.tables = tables;
    this.clock = clock;
    Dialect dialect = database.dialect();
    this.summaries = row -> new Summary(row.getString("session_id"), row.getLong("from_seq"),
        row.getLong("to_seq"), dialect.readJson(row, "content"), row.getInt("version"),
        Sql.instant(row, "created_at"));
    RowMapper<Event> events = EventRows.mapper(dialect);
    this.parts = row -> {
      Part part = Part.values()[row.getInt("part")];
      if (part == Part.EVENT) {
        return new PartRow(part, null, events.map(row));
      }
      return new PartRow(part, new Summary(row.getString("session_id"), row.getLong("from_seq"),
          row.getLong("seq"), dialect.readJson(row, "payload"), row.getInt("version"), Sql.instant(row, "ts")),
          null);
    };
    String replace = "from_seq = excluded.from_seq, content = excluded.content, version = excluded.version,"
        + " created_at = excluded.created_at";
    // FOR SHARE waits for a truncation (or append) holding the head and re-checks last_seq after it, so a summary
    // never lands past the end of a log that was just cut.
    this.put = "INSERT INTO " + tables.summaries() + " (" + SUMMARY_COLUMNS + ")"
        + " SELECT s.id, ?, ?, " + dialect.jsonParameter() + ", ?, ? FROM " + tables.sessions() + " s"
        + " WHERE s.id = ? AND s.last_seq >= ? FOR SHARE"
        + dialect.onConflictUpdate("session_id, to_seq", replace) + " RETURNING " + SUMMARY_COLUMNS;
    this.store = "INSERT INTO " + tables.summaries() + " (" + SUMMARY_COLUMNS + ")"
        + " VALUES (?, ?, ?, " + dialect.jsonParameter() + ", ?, ?)"
        + dialect.onConflictUpdate("session_id, to_seq", replace) + " RETURNING " + SUMMARY_COLUMNS;
    this.revive = revival(false);
    this.reviveAgent = revival(true);
    this.chapter = chapter(false);
    this.chapterAgent = chapter(true);
  }

  /**
   * The latest summary and the events after it, of one agent when {@code byAgent}. Parameters: session id, session
   * id, and the agent id when {@code byAgent}.
   */
  private String revival(boolean byAgent) {
    return "WITH latest AS ("
        + "SELECT * FROM " + tables.summaries() + " WHERE session_id = ? ORDER BY to_seq DESC LIMIT 1"
        + ") " + summaryPart(Part.SUMMARY, "latest")
        + " UNION ALL " + eventPart(byAgent) + " AND seq > coalesce((SELECT to_seq FROM latest), 0)"
        + " ORDER BY part, seq";
  }

  /**
   * The chapter closed by a summary, its events of one agent when {@code byAgent}. Parameters: session id, to_seq,
   * session id, to_seq, session id, the agent id when {@code byAgent}, to_seq.
   */
  private String chapter(boolean byAgent) {
    return "WITH closing AS ("
        + "SELECT * FROM " + tables.summaries() + " WHERE session_id = ? AND to_seq = ?"
        + "), previous AS ("
        + "SELECT * FROM " + tables.summaries() + " WHERE session_id = ? AND to_seq < ?"
        + " ORDER BY to_seq DESC LIMIT 1"
        + ") " + summaryPart(Part.PREVIOUS_SUMMARY, "previous")
        + " UNION ALL " + summaryPart(Part.SUMMARY, "closing")
        + " UNION ALL " + eventPart(byAgent) + " AND seq > coalesce((SELECT to_seq FROM previous), 0) AND seq <= ?"
        + " AND EXISTS (SELECT 1 FROM closing)"
        + " ORDER BY part, seq";
  }

  private static String summaryPart(Part part, String source) {
    return "SELECT " + part.ordinal() + " AS part, session_id, to_seq AS seq, from_seq, NULL AS id, NULL AS type,"
        + " NULL AS run_id, NULL AS agent_id, NULL AS parent_id, content AS payload, version, created_at AS ts"
        + " FROM " + source;
  }

  private String eventPart(boolean byAgent) {
    return "SELECT " + Part.EVENT.ordinal() + ", session_id, seq, NULL, id, type, run_id, agent_id, parent_id,"
        + " payload, NULL, ts FROM " + tables.events() + " WHERE session_id = ?" + (byAgent ? " AND agent_id = ?" : "");
  }

  @Override
  public Summary put(String sessionId, NewSummary summary) {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNull("summary", summary);
    Instant now = clock.instant();
    return database.autoCommit("store a summary of session " + sessionId, connection -> {
      Optional<Summary> stored = Sql.first(connection, put, summaries, summary.toSeq(), summary.fromSeq(),
          summary.content(), summary.version(), now, sessionId, summary.toSeq());
      if (stored.isPresent()) {
        return stored.get();
      }
      long latestSeq = Sql.first(connection, "SELECT last_seq FROM " + tables.sessions() + " WHERE id = ?",
          row -> row.getLong(1), sessionId).orElseThrow(() -> new NotFoundException("session", sessionId));
      throw new InvalidArgumentException("summary.toSeq",
          summary.toSeq() + " is past the latest seq " + latestSeq + " of session " + sessionId);
    });
  }

  /**
   * Stores {@code summary} for a session whose head this transaction has locked, and whose log reaches the
   * summary's {@code toSeq} (the caller checked).
   */
  Summary store(Connection connection, String sessionId, NewSummary summary, Instant now) throws SQLException {
    return Sql.first(connection, store, summaries, sessionId, summary.toSeq(), summary.fromSeq(), summary.content(),
        summary.version(), now).orElseThrow();
  }

  @Override
  public Optional<Summary> latest(String sessionId) {
    Arguments.requireKey("sessionId", sessionId);
    return database.read("read the latest summary of session " + sessionId, connection -> Sql.first(
        connection, "SELECT " + SUMMARY_COLUMNS + " FROM " + tables.summaries()
            + " WHERE session_id = ? ORDER BY to_seq DESC LIMIT 1", summaries, sessionId));
  }

  @Override
  public List<Summary> list(String sessionId) {
    Arguments.requireKey("sessionId", sessionId);
    return database.read("list the summaries of session " + sessionId, connection -> Sql.list(
        connection, "SELECT " + SUMMARY_COLUMNS + " FROM " + tables.summaries()
            + " WHERE session_id = ? ORDER BY to_seq", summaries, sessionId));
  }

  @Override
  public Revival revive(String sessionId) {
    Arguments.requireKey("sessionId", sessionId);
    return revival("revive session " + sessionId, revive, sessionId, sessionId);
  }

  @Override
  public Revival revive(String sessionId, String agentId) {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireKey("agentId", agentId);
    return revival("revive session " + sessionId + " for agent " + agentId, reviveAgent, sessionId, sessionId,
        agentId);
  }

  private Revival revival(String action, String sql, Object... parameters) {
    List<PartRow> rows = database.read(action, connection -> Sql.list(connection, sql, parts, parameters));
    Optional<Summary> summary = Optional.empty();
    List<Event> events = new ArrayList<>();
    for (PartRow row : rows) {
      if (row.part() == Part.EVENT) {
        events.add(row.event());
      } else {
        summary = Optional.of(row.summary());
      }
    }
    return new Revival(summary, events);
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq) {
    Arguments.requireKey("sessionId", sessionId);
    return chapterOf("read a chapter of session " + sessionId, chapter, sessionId, summaryToSeq, sessionId,
        summaryToSeq, sessionId, summaryToSeq);
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq, String agentId) {
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireKey("agentId", agentId);
    return chapterOf("read a chapter of session " + sessionId + " for agent " + agentId, chapterAgent, sessionId,
        summaryToSeq, sessionId, summaryToSeq, sessionId, agentId, summaryToSeq);
  }

  private Optional<Chapter> chapterOf(String action, String sql, Object... parameters) {
    List<PartRow> rows = database.read(action, connection -> Sql.list(connection, sql, parts, parameters));
    Summary closing = null;
    Optional<Summary> previous = Optional.empty();
    List<Event> events = new ArrayList<>();
    for (PartRow row : rows) {
      switch (row.part()) {
        case PREVIOUS_SUMMARY -> previous = Optional.of(row.summary());
        case SUMMARY -> closing = row.summary();
        case EVENT -> events.add(row.event());
      }
    }
    return closing == null ? Optional.empty() : Optional.of(new Chapter(closing, previous, events));
  }
}
