package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A selective search on SQLite reads the events through the FTS5 index, at 1,000 events and at 100,000, with the
 * same hits ({@link SearchGrowthWorkload}): SQLite's {@code EXPLAIN QUERY PLAN} of the search statement, taken on
 * the store's own connection with the values bound, must read the search table by its full-text index
 * ({@code VIRTUAL TABLE INDEX}), every other table by a key ({@code SEARCH}), and scan nothing but what it read
 * by those (its CTEs: the {@code hits}, the {@code forks} showing them, the sessions {@code shown}) and
 * {@code json_each}'s rows; at 100,000 events
 * also after {@code ANALYZE}, so that statistics cannot turn the plan.
 */
class SqliteSearchCostTest {

  @TempDir
  static Path folder;

  /** The scans of the statement's own CTEs, by name and by alias: rows it read by an index first. */
  private static final Set<String> SCANNED_RESULTS =
      Set.of("SCAN hits", "SCAN h", "SCAN forks", "SCAN g", "SCAN shown", "SCAN s");

  /** The plan lines of the search being recorded; {@code null} when not recording. */
  private static List<String> recording;

  private static void explain(Connection connection, String sql, WatchedDataSource.Values values, boolean prepared)
      throws SQLException {
    List<String> plan = recording;
    if (plan == null || !prepared || !sql.startsWith("WITH hits")) {
      return;
    }
    try (PreparedStatement explain = connection.prepareStatement("EXPLAIN QUERY PLAN " + sql)) {
      values.bindTo(explain);
      try (ResultSet rows = explain.executeQuery()) {
        while (rows.next()) {
          plan.add(rows.getString("detail"));
        }
      }
    }
  }

  private static Map<String, List<String>> measure(SearchGrowthWorkload workload, Map<String, List<String>> hits) {
    Map<String, List<String>> plans = new LinkedHashMap<>();
    for (SearchQuery query : SearchGrowthWorkload.queries()) {
      recording = new ArrayList<>();
      hits.put(query.toString(), workload.search(query));
      plans.put(query.toString(), recording);
      recording = null;
    }
    return plans;
  }

  private static List<String> faults(Map<String, List<String>> plans) {
    List<String> faults = new ArrayList<>();
    plans.forEach((query, plan) -> {
      assertThat(plan).as("plan of " + query).isNotEmpty();
      boolean throughIndex = false;
      for (String line : plan) {
        if (line.matches("SCAN \\S*search VIRTUAL TABLE INDEX .*")) {
          throughIndex = true;
        } else if (line.startsWith("SCAN ") && !SCANNED_RESULTS.contains(line) && !line.contains(" VIRTUAL TABLE ")) {
          faults.add(query + ": " + line);
        }
      }
      if (!throughIndex) {
        faults.add(query + ": no read of the full-text index in " + plan);
      }
    });
    return faults;
  }

  @Test
  @DisplayName("A selective search reads through the FTS5 index and scans no table, at 1,000 and 100,000 events")
  void plansReadTheIndex() throws SQLException {
    Path file = folder.resolve("cost.db");
    SessionStore store = JdbcSessionStore.builder().dataSource(WatchedDataSource.wrap(
        SqliteConformanceTest.dataSource(file), SqliteSearchCostTest::explain)).build();
    try {
      SearchGrowthWorkload workload = SearchGrowthWorkload.prepare(store, 1_000);
      Map<String, List<String>> smallHits = new LinkedHashMap<>();
      Map<String, List<String>> small = measure(workload, smallHits);
      workload.grow(100_000);
      Map<String, List<String>> largeHits = new LinkedHashMap<>();
      Map<String, List<String>> large = measure(workload, largeHits);
      try (Connection connection = SqliteConformanceTest.dataSource(file).getConnection();
           Statement statement = connection.createStatement()) {
        statement.executeUpdate("ANALYZE");
      }
      Map<String, List<String>> analyzedHits = new LinkedHashMap<>();
      Map<String, List<String>> analyzed = measure(workload, analyzedHits);
      analyzed.forEach((query, plan) -> System.out.println("search plan: " + query + ": " + plan));
      assertThat(largeHits).isEqualTo(smallHits).isEqualTo(analyzedHits);
      assertThat(smallHits.values()).allSatisfy(found -> assertThat(found).isNotEmpty());
      List<String> faults = new ArrayList<>(faults(small));
      faults.addAll(faults(large));
      faults.addAll(faults(analyzed));
      assertThat(faults).as("searches that scan a table or miss the index").isEmpty();
    } finally {
      store.close();
    }
  }
}
