package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * A query by expiry ({@link SessionQuery#expiresBefore}) reads only the sessions that match, not the store: 2,000
 * sessions, half with an expiry after the query's instant, half with none, and one expired, all carrying one metadata
 * entry (as the spring-ai-session bridge's marker, which its expiry query adds). On PostgreSQL the
 * listing statement is run as {@code EXPLAIN (ANALYZE, FORMAT JSON)} on the store's connection with the same values,
 * and the rows its scans read are counted (rows returned plus rows removed by a filter or recheck, per loop); the same
 * query after dropping the index shows the count sees a scan of every session. On
 * SQLite, whose plans carry no row counts, {@code EXPLAIN QUERY PLAN} must show a search of the expiry index bounded
 * by the instant and no scan of a table, without statistics and after {@code ANALYZE}.
 */
class ExpiryQueryCostTest {

  private static final int SESSIONS = 2_000;
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final ObjectMapper JSON = new ObjectMapper();
  /** A metadata entry every session carries, as the spring-ai-session bridge's marker does. */
  private static final String MARKER = "marker";

  /** Rows read by the scans of the recorded statements, and how many were explained; {@code null} when idle. */
  private static long[] rowsRead;
  private static final List<String> sqlitePlan = new ArrayList<>();

  @TempDir
  Path folder;

  @Test
  @DisplayName("On PostgreSQL the expiry query reads the one expired session's row among 2,000")
  void postgresReadsOnlyTheExpiredRows() {
    try (TestSchema schema = new TestSchema()) {
      SessionStore store = schema.store(WatchedDataSource.wrap(schema.pool(2), ExpiryQueryCostTest::explainAnalyze),
          builder -> builder);
      String expired = store.sessions().save(SessionWrite.of("expired").withExpiresAt(NOW.minusSeconds(1))
          .withMetadata(MARKER, "true")).id();
      TestDatabase.get().execute("INSERT INTO \"" + schema.name() + "\".session_store_sessions"
          + " (id, status, settings, metadata, created_at, updated_at, expires_at)"
          + " SELECT 'other-' || g, 'active', '{}', '{\"" + MARKER + "\": \"true\"}', now(), now(),"
          + " CASE WHEN g % 2 = 0 THEN timestamptz '2030-01-02T00:00:00Z' END"
          + " FROM generate_series(2, " + SESSIONS + ") g");
      TestDatabase.get().execute("ANALYZE \"" + schema.name() + "\".session_store_sessions");

      for (SessionQuery query : List.of(SessionQuery.all().expiresBefore(NOW).limit(100),
          SessionQuery.all().metadata(MARKER, "true").expiresBefore(NOW).limit(100))) {
        rowsRead = new long[2];
        List<Session> found = store.sessions().list(query).items();
        long[] counted = rowsRead;
        rowsRead = null;

        assertThat(found).as(query.toString()).extracting(Session::id).containsExactly(expired);
        assertThat(counted[1]).as("listing statements explained").isEqualTo(1);
        System.out.println("expiry query: " + counted[0] + " rows read among " + SESSIONS + " sessions (PostgreSQL, "
            + (query.metadata().isEmpty() ? "expiry only" : "with the marker metadata every session carries") + ")");
        assertThat(counted[0]).as("rows the scans of " + query + " read").isEqualTo(1);
      }

      // The count sees a scan: without the index the same query reads every session.
      TestDatabase.get().execute("DROP INDEX \"" + schema.name() + "\".session_store_sessions_expiry_idx");
      rowsRead = new long[2];
      store.sessions().list(SessionQuery.all().expiresBefore(NOW).limit(100));
      long[] unindexed = rowsRead;
      rowsRead = null;
      assertThat(unindexed[0]).as("rows read without the expiry index").isGreaterThanOrEqualTo(SESSIONS);
    }
  }

  @Test
  @DisplayName("On SQLite the expiry query searches the expiry index by the instant and scans no table")
  void sqliteSearchesTheExpiryIndex() throws SQLException {
    Path file = folder.resolve("expiry.db");
    SQLiteDataSource plain = SqliteConformanceTest.dataSource(file);
    try (SessionStore store = JdbcSessionStore.builder()
        .dataSource(WatchedDataSource.wrap(plain, ExpiryQueryCostTest::explainQueryPlan)).build()) {
      String expired = store.sessions().save(SessionWrite.of("expired").withExpiresAt(NOW.minusSeconds(1))).id();
      try (Connection connection = plain.getConnection(); Statement statement = connection.createStatement()) {
        statement.execute("WITH RECURSIVE g(n) AS (SELECT 2 UNION ALL SELECT n + 1 FROM g WHERE n < " + SESSIONS
            + ") INSERT INTO session_store_sessions (id, status, settings, metadata, created_at, updated_at,"
            + " expires_at) SELECT 'other-' || n, 'active', '{}', '{}', n, n,"
            + " CASE WHEN n % 2 = 0 THEN 1893542400000000 END FROM g");
      }
      for (boolean analyzed : new boolean[] {false, true}) {
        if (analyzed) {
          try (Connection connection = plain.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE");
          }
        }
        sqlitePlan.clear();
        rowsRead = new long[2];
        List<Session> found = store.sessions().list(SessionQuery.all().expiresBefore(NOW).limit(100)).items();
        rowsRead = null;

        String when = analyzed ? "after ANALYZE" : "without statistics";
        assertThat(found).extracting(Session::id).as(when).containsExactly(expired);
        assertThat(sqlitePlan).as("plan " + when)
            .anyMatch(line -> line.matches("SEARCH \\S*sessions USING INDEX \\S*sessions_expiry_idx"
                + " \\(expires_at<\\?\\)"))
            .noneMatch(line -> line.startsWith("SCAN"));
      }
    }
  }

  private static boolean isExpiryListing(String sql) {
    return sql.startsWith("SELECT id, name") && sql.contains("expires_at <");
  }

  private static void explainAnalyze(Connection connection, String sql, WatchedDataSource.Values values,
      boolean prepared) throws SQLException {
    long[] counts = rowsRead;
    if (counts == null || !prepared || !isExpiryListing(sql)) {
      return;
    }
    try (PreparedStatement explain = connection.prepareStatement("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)) {
      values.bindTo(explain);
      try (ResultSet rows = explain.executeQuery()) {
        rows.next();
        counts[0] += scannedRows(JSON.readTree(rows.getString(1)).get(0).get("Plan"));
        counts[1]++;
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new SQLException("unreadable plan", e);
      }
    }
  }

  /**
   * The table rows the scans of {@code node} and its children read (nodes that name a relation: an index-only
   * bitmap scan names none, its heap scan counts the rows): returned or removed, per loop.
   */
  private static long scannedRows(JsonNode node) {
    long rows = 0;
    if (node.has("Relation Name")) {
      rows += (node.path("Actual Rows").asLong() + node.path("Rows Removed by Filter").asLong()
          + node.path("Rows Removed by Index Recheck").asLong()) * node.path("Actual Loops").asLong(1);
    }
    for (JsonNode child : node.path("Plans")) {
      rows += scannedRows(child);
    }
    return rows;
  }

  private static void explainQueryPlan(Connection connection, String sql, WatchedDataSource.Values values,
      boolean prepared) throws SQLException {
    if (rowsRead == null || !prepared || !isExpiryListing(sql)) {
      return;
    }
    try (PreparedStatement explain = connection.prepareStatement("EXPLAIN QUERY PLAN " + sql)) {
      values.bindTo(explain);
      try (ResultSet rows = explain.executeQuery()) {
        while (rows.next()) {
          sqlitePlan.add(rows.getString("detail"));
        }
      }
    }
    rowsRead[1]++;
  }
}
