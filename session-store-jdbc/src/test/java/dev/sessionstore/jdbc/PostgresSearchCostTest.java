package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A selective search on PostgreSQL touches about as many buffers in a store of 100,000 events as in one of 1,000,
 * finding the same hits ({@link SearchGrowthWorkload}): the search statement is first run as
 * {@code EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)} on the store's own connection with the same values, and the shared
 * buffers (hit and read) of its top plan node are counted (the greatest node's: a node's figures include its children's). Before each size is measured the events table is vacuumed
 * and analyzed, as autovacuum does after a bulk of appends: that merges the GIN index's pending list (bounded by
 * {@code gin_pending_list_limit}, whatever the store's size) into the index. Fails when the large store's count is
 * more than twice the small one's plus 16.
 */
class PostgresSearchCostTest {

  private static final Pattern BUFFERS = Pattern.compile("\"Shared (?:Hit|Read) Blocks\": (\\d+)");
  private static final TestSchema SCHEMA = new TestSchema();
  /** Buffers of the search being recorded; {@code null} when not recording. */
  private static long[] recording;
  private static final List<String> FAILED = new ArrayList<>();

  @AfterAll
  static void drop() {
    SCHEMA.close();
  }

  private static void explain(Connection connection, String sql, WatchedDataSource.Values values, boolean prepared)
      throws SQLException {
    long[] buffers = recording;
    if (buffers == null || !prepared || !sql.startsWith("WITH hits")) {
      return;
    }
    try (PreparedStatement explain = connection.prepareStatement("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql)) {
      values.bindTo(explain);
      try (ResultSet rows = explain.executeQuery()) {
        rows.next();
        String plan = rows.getString(1);
        // A node's figures include its children's: the greatest node's are the statement's (planning's apart).
        String execution = plan.split("\"Planning\"", 2)[0];
        Matcher matcher = BUFFERS.matcher(execution);
        long most = 0;
        while (matcher.find()) {
          long hit = Long.parseLong(matcher.group(1));
          matcher.find();
          most = Math.max(most, hit + Long.parseLong(matcher.group(1)));
        }
        buffers[0] += most;
        buffers[1]++;
        if (System.getProperty("search.plans") != null) {
          System.out.println(plan);
        }
      }
    } catch (SQLException e) {
      FAILED.add(sql + ": " + e.getMessage());
    }
  }

  private static Map<String, Long> measure(SearchGrowthWorkload workload, Map<String, List<String>> hits) {
    TestDatabase.get().execute("VACUUM ANALYZE \"" + SCHEMA.name() + "\".session_store_events");
    TestDatabase.get().execute("ANALYZE \"" + SCHEMA.name() + "\".session_store_sessions");
    Map<String, Long> counts = new LinkedHashMap<>();
    for (SearchQuery query : SearchGrowthWorkload.queries()) {
      workload.search(query); // warm up: caches, plans
      recording = new long[2];
      hits.put(query.toString(), workload.search(query));
      assertThat(recording[1]).as("search statements explained").isEqualTo(1);
      counts.put(query.toString(), recording[0]);
      recording = null;
    }
    return counts;
  }

  @Test
  @DisplayName("A selective search touches as many buffers at 100,000 events as at 1,000, with the same hits")
  void buffersDoNotGrowWithTheStore() {
    SessionStore store = SCHEMA.store(WatchedDataSource.wrap(SCHEMA.pool(4), PostgresSearchCostTest::explain),
        builder -> builder);
    SearchGrowthWorkload workload = SearchGrowthWorkload.prepare(store, 1_000);
    Map<String, List<String>> smallHits = new LinkedHashMap<>();
    Map<String, Long> small = measure(workload, smallHits);
    workload.grow(100_000);
    Map<String, List<String>> largeHits = new LinkedHashMap<>();
    Map<String, Long> large = measure(workload, largeHits);
    List<String> grown = new ArrayList<>();
    for (String query : small.keySet()) {
      String line = query + ": " + small.get(query) + " buffers at 1,000 events, " + large.get(query) + " at 100,000 ("
          + largeHits.get(query).size() + " hits)";
      System.out.println("search buffers: " + line);
      if (large.get(query) > 2 * small.get(query) + 16) {
        grown.add(line);
      }
    }
    assertThat(FAILED).as("statements that could not be explained").isEmpty();
    assertThat(largeHits).isEqualTo(smallHits);
    assertThat(smallHits.values()).allSatisfy(found -> assertThat(found).isNotEmpty());
    assertThat(grown).as("searches whose work grows with the store").isEmpty();
  }
}
