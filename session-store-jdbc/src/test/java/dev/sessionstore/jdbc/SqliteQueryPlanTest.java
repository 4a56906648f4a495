package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SessionStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every statement the SQLite store runs for a call of {@link SessionLengthWorkload} is planned so that its work does
 * not grow with the session's length. SQLite's {@code EXPLAIN QUERY PLAN} of each statement, taken on the store's
 * own connection just before the statement runs, with the values bound to it, must show:
 * <ul>
 *   <li>no {@code SCAN} of a table (a scan of {@code json_each} or of a subquery's rows is no table);</li>
 *   <li>every search of the events table bounded by a seq or an id, not by the session alone, which walks the whole
 *       session (the id lookup of appends did that, ordered by seq through the seq key);</li>
 *   <li>no sort ({@code USE TEMP B-TREE}) of rows read from a table: only the rows a subquery returned, each branch
 *       bounded by its limit, may be sorted (a fork's tail read sorted every shared event before its limit).</li>
 * </ul>
 * The plans are taken without statistics ({@code sqlite_stat1}), as a fresh file has none, then again after
 * {@code ANALYZE}, so that neither can turn them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SqliteQueryPlanTest {

  private static final int LENGTH = 3_000;
  private static final Pattern SEARCH_EVENTS = Pattern.compile("^SEARCH \\S*events\\S* .*\\((.*)\\)$");
  private static final Pattern NAMED_RESULT = Pattern.compile("^(?:CO-ROUTINE|MATERIALIZE) (\\S+)");

  @TempDir
  static Path folder;

  /** The call being recorded, or {@code null}. */
  private static String recording;
  private static final List<String> findings = new ArrayList<>();
  private static final List<String> plans = new ArrayList<>();
  private static SessionStore store;
  private static Path file;
  private static SessionLengthWorkload workload;

  @BeforeAll
  static void fill() {
    file = folder.resolve("plans.db");
    store = JdbcSessionStore.builder().dataSource(WatchedDataSource.wrap(SqliteConformanceTest.dataSource(file),
        SqliteQueryPlanTest::explain)).build();
    workload = SessionLengthWorkload.prepare(store, "long", LENGTH);
  }

  @AfterAll
  static void close() {
    store.close();
  }

  private static synchronized void explain(Connection connection, String sql, WatchedDataSource.Values values,
      boolean prepared) throws SQLException {
    String call = recording;
    if (call == null || !prepared || !Thread.currentThread().getName().equals("main")) {
      return;
    }
    List<String[]> rows = new ArrayList<>();
    try (PreparedStatement explain = connection.prepareStatement("EXPLAIN QUERY PLAN " + sql)) {
      values.bindTo(explain);
      try (ResultSet plan = explain.executeQuery()) {
        while (plan.next()) {
          rows.add(new String[] {plan.getString("parent"), plan.getString("detail")});
        }
      }
    }
    plans.add(call + ": " + sql);
    Set<String> results = new HashSet<>();
    for (String[] row : rows) {
      plans.add("      " + row[1]);
      Matcher named = NAMED_RESULT.matcher(row[1]);
      if (named.find()) {
        results.add(named.group(1));
      }
    }
    for (String[] row : rows) {
      String detail = row[1];
      Matcher search = SEARCH_EVENTS.matcher(detail);
      boolean walksSession = search.find() && !search.group(1).contains("seq") && !search.group(1).contains("id=");
      // A sort is bounded when it sorts what a subquery returned (a branch's limited rows), not a table's rows.
      boolean sortsTableRows = detail.startsWith("USE TEMP B-TREE") && rows.stream()
          .anyMatch(sibling -> sibling[0].equals(row[0]) && readsTable(sibling[1], results));
      if ((detail.startsWith("SCAN ") && readsTable(detail, results)) || walksSession || sortsTableRows) {
        findings.add(call + ": " + detail + " in " + sql);
      }
    }
  }

  /** Whether a plan line searches or scans a table, not {@code json_each} nor a subquery's or a CTE's rows. */
  private static boolean readsTable(String detail, Set<String> results) {
    if (!detail.startsWith("SCAN ") && !detail.startsWith("SEARCH ")) {
      return false;
    }
    String name = detail.substring(detail.indexOf(' ') + 1).split(" ")[0];
    return !detail.contains("VIRTUAL TABLE") && !results.contains(name) && !name.startsWith("(subquery");
  }

  private static void runCalls() {
    for (Map.Entry<String, Runnable> call : workload.calls().entrySet()) {
      recording = call.getKey();
      try {
        call.getValue().run();
      } finally {
        recording = null;
      }
    }
  }

  @Test
  @Order(1)
  @DisplayName("Without statistics, no statement of a call scans a table, walks a session or sorts inside")
  void plansWithoutStatistics() {
    runCalls();
    plans.forEach(System.out::println);
    assertThat(plans).as("statements explained").isNotEmpty();
    assertThat(findings).as("plan lines whose work grows with the session").isEmpty();
  }

  @Test
  @Order(2)
  @DisplayName("After ANALYZE, no statement of a call scans a table, walks a session or sorts inside")
  void plansWithStatistics() throws SQLException {
    try (Connection connection = SqliteConformanceTest.dataSource(file).getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("ANALYZE");
    }
    plans.clear();
    runCalls();
    assertThat(plans).as("statements explained").isNotEmpty();
    assertThat(findings).as("plan lines whose work grows with the session").isEmpty();
  }
}
