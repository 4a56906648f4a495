package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Event;
import dev.sessionstore.Search;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.spi.SearchResults;
import dev.sessionstore.spi.SearchText;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Search} through the database's index of the events' words ({@link Dialect#holdsWords}: on PostgreSQL a
 * GIN-indexed {@code tsvector} column, on SQLite an FTS5 table), in one statement, so one snapshot.
 *
 * <p>The statement first reads, through the index, the event rows that hold each of
 * {@link SearchText#indexWords}, narrowed by the query's event filters (types, run, agent, time) and, for one
 * session, to the rows of that session and of the sources its segments name. It then shows each row as the sessions
 * in scope show it: as its own session's event, and as the event of every fork whose segment names it (with the
 * fork's id), each only above that session's retention cut, and only for sessions the scope admits (id, tenant,
 * metadata). A row that no session shows any more (its session deleted) has no session row to join. Every such event
 * goes to {@link SearchResults#page}, which matches, ranks and pages them as on every adapter. The work is that of
 * the rows the index selects, whatever the size of the store.
 */
final class JdbcSearch implements Search {

  private final Database database;
  private final Dialect dialect;
  private final Tables tables;
  private final Sql sql;
  private final RowMapper<Event> events;

  JdbcSearch(Database database, Tables tables) {
    this.database = database;
    this.dialect = database.dialect();
    this.tables = tables;
    this.sql = new Sql(dialect);
    this.events = EventRows.mapper(dialect);
  }

  @Override
  public SearchPage find(SearchQuery query) {
    List<Event> candidates = database.read("search events", connection -> candidates(connection, query));
    return SearchResults.page(query, candidates);
  }

  private List<Event> candidates(Connection connection, SearchQuery query) throws SQLException {
    List<Object> parameters = new ArrayList<>();
    StringBuilder hits = new StringBuilder("WITH hits AS MATERIALIZED (SELECT " + prefixed("e") + " FROM "
        + tables.events() + " e WHERE " + dialect.holdsWords(tables, "e"));
    parameters.add(dialect.wordsQuery(SearchText.indexWords(query)));
    if (query.sessionId() != null) {
      hits.append(" AND (e.session_id = ? OR e.session_id IN (SELECT source_id FROM ")
          .append(dialect.segmentsBySession(tables)).append(" WHERE session_id = ?))");
      parameters.add(query.sessionId());
      parameters.add(query.sessionId());
    }
    if (!query.types().isEmpty()) {
      hits.append(" AND ").append(dialect.isAnyOf("e.type"));
      parameters.add(dialect.textList(connection, query.types()));
    }
    if (query.runId() != null) {
      hits.append(" AND e.run_id = ?");
      parameters.add(query.runId());
    }
    if (query.agentId() != null) {
      hits.append(" AND e.agent_id = ?");
      parameters.add(query.agentId());
    }
    if (query.since() != null) {
      hits.append(" AND e.ts >= ?");
      parameters.add(query.since());
    }
    if (query.until() != null) {
      hits.append(" AND e.ts < ?");
      parameters.add(query.until());
    }
    hits.append(")");
    // The forks whose segments show the hits' sessions, and the sessions in scope that show a hit (their own or a
    // fork), each read by its key for each session the hits name (Dialect#isAmong), never by a join planned on the
    // hits' estimated number.
    String forks = ", forks AS MATERIALIZED (SELECT sg.session_id, sg.source_id, sg.from_seq, sg.to_seq FROM "
        + dialect.segmentsBySource(tables, "sg") + " WHERE "
        + dialect.isAmong("sg.source_id", "SELECT session_id FROM hits") + " AND sg.session_id <> sg.source_id)";
    String shown = ", shown AS MATERIALIZED (SELECT ss.id, ss.cut_seq FROM " + dialect.sessionsById(tables, "ss")
        + " WHERE " + dialect.isAmong("ss.id", "SELECT session_id FROM hits UNION SELECT session_id FROM forks")
        + scope(query, parameters) + ")";
    String columns = "h.seq, h.id, h.type, h.run_id, h.agent_id, h.parent_id, h.payload, h.ts";
    String statement = hits + forks + shown
        + " SELECT h.session_id AS session_id, " + columns + " FROM hits h JOIN shown s ON s.id = h.session_id"
        + " WHERE h.seq > s.cut_seq"
        + " UNION ALL SELECT g.session_id AS session_id, " + columns + " FROM hits h"
        + " JOIN forks g ON g.source_id = h.session_id JOIN shown s ON s.id = g.session_id"
        + " WHERE g.to_seq >= h.seq AND g.from_seq <= h.seq AND h.seq > s.cut_seq";
    return sql.list(connection, statement, events, parameters.toArray());
  }

  /** The conditions on the showing session {@code ss} the query's scope sets, each starting with {@code AND}. */
  private String scope(SearchQuery query, List<Object> parameters) {
    StringBuilder scope = new StringBuilder();
    if (query.sessionId() != null) {
      scope.append(" AND ss.id = ?");
      parameters.add(query.sessionId());
    }
    if (query.tenant() != null) {
      scope.append(" AND ss.tenant = ?");
      parameters.add(query.tenant());
    }
    if (!query.sessionMetadata().isEmpty()) {
      scope.append(" AND ").append(dialect.containsMetadata("ss.metadata"));
      parameters.add(MetadataJson.write(query.sessionMetadata()));
    }
    return scope.toString();
  }

  private static String prefixed(String alias) {
    return String.join(", ", List.of(EventRows.COLUMNS.split(", ")).stream().map(c -> alias + "." + c).toList());
  }
}
