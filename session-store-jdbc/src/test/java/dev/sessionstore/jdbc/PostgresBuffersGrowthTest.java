package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SessionStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL store does the same work for a call of {@link SessionLengthWorkload} on a session of 100,000 events
 * as on one of 1,000 (and on forks of each): every statement a call runs is first run as
 * {@code EXPLAIN (ANALYZE, BUFFERS)} on the store's own connection, with the same values, in a savepoint (or a
 * transaction) that is rolled back, so it meets exactly the state the statement meets; the shared buffers its plan
 * touched (hit or read) are summed per call. Both sessions live in the same tables, so the indexes have the same
 * depth for both, and a difference can only come from the session's length. A call may touch a few more buffers on
 * the long session (its rows spread over more pages, a page split on the way), never a number that grows with it:
 * the test fails when the long session's count is more than twice the short one's plus 16. Around them the tables
 * hold {@value #SHORT_SESSIONS} sessions of two events, analyzed like the rest, as a production table holds many short
 * conversations: statistics that say a session has a few rows must not make a plan (a generic one cached by a
 * function, or a custom one) read all of a long session's rows.
 */
class PostgresBuffersGrowthTest {

  private static final int SHORT = 1_000;
  private static final int LONG = 100_000;
  private static final int SHORT_SESSIONS = 20_000;
  private static final Pattern BUFFERS = Pattern.compile("Buffers: shared(?: hit=(\\d+))?(?: read=(\\d+))?");
  private static final List<String> EXPLAINABLE = List.of("select", "insert", "update", "delete", "with");

  private static final TestSchema SCHEMA = new TestSchema();
  private static SessionStore store;
  private static SessionLengthWorkload shortSession;
  private static SessionLengthWorkload longSession;
  /** Buffers of the call being recorded; {@code null} when not recording. */
  private static long[] recording;
  private static final List<String> FAILED = new ArrayList<>();

  @BeforeAll
  static void fill() {
    store = SCHEMA.store(WatchedDataSource.wrap(SCHEMA.pool(10), PostgresBuffersGrowthTest::explain),
        builder -> builder);
    shortSession = SessionLengthWorkload.prepare(store, "short", SHORT);
    longSession = SessionLengthWorkload.prepare(store, "long", LONG);
    String tables = "\"" + SCHEMA.name() + "\".session_store_";
    TestDatabase.get().execute("INSERT INTO " + tables + "sessions (id, status, settings, metadata, last_seq,"
        + " created_at, updated_at) SELECT 'two-' || g, 'active', '{}', '{}', 2, now(), now()"
        + " FROM generate_series(1, " + SHORT_SESSIONS + ") AS g");
    TestDatabase.get().execute("INSERT INTO " + tables + "events (session_id, seq, id, type, payload, ts)"
        + " SELECT 'two-' || g, k, 'event-' || k, 'message', '{}', now()"
        + " FROM generate_series(1, " + SHORT_SESSIONS + ") AS g, generate_series(1, 2) AS k");
    TestDatabase.get().execute("ANALYZE " + tables + "sessions");
    TestDatabase.get().execute("ANALYZE " + tables + "events");
  }

  @AfterAll
  static void drop() {
    SCHEMA.close();
  }

  private static void explain(Connection connection, String sql, WatchedDataSource.Values values,
      boolean prepared) throws SQLException {
    long[] buffers = recording;
    String verb = sql.stripLeading().split("[\\s(]", 2)[0].toLowerCase(Locale.ROOT);
    if (buffers == null || !prepared || !EXPLAINABLE.contains(verb)
        || !Thread.currentThread().getName().equals("main")) {
      return;
    }
    boolean autoCommit = connection.getAutoCommit();
    if (autoCommit) {
      connection.setAutoCommit(false);
    } else {
      try (Statement savepoint = connection.createStatement()) {
        savepoint.execute("SAVEPOINT growth_explain");
      }
    }
    try (PreparedStatement explain = connection.prepareStatement("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql)) {
      values.bindTo(explain);
      StringBuilder plan = new StringBuilder();
      try (ResultSet rows = explain.executeQuery()) {
        while (rows.next()) {
          plan.append(rows.getString(1)).append('\n');
        }
      }
      buffers[0] += topBuffers(plan.toString());
      buffers[1]++;
    } catch (SQLException e) {
      FAILED.add(sql + ": " + e.getMessage());
    } finally {
      if (autoCommit) {
        connection.rollback();
        connection.setAutoCommit(true);
      } else {
        try (Statement savepoint = connection.createStatement()) {
          savepoint.execute("ROLLBACK TO SAVEPOINT growth_explain");
          savepoint.execute("RELEASE SAVEPOINT growth_explain");
        }
      }
    }
  }

  /** The shared buffers the plan's top node touched, its children's included; planning's are not counted. */
  private static long topBuffers(String plan) {
    String execution = plan.split("\nPlanning", 2)[0];
    Matcher matcher = BUFFERS.matcher(execution);
    if (!matcher.find()) {
      return 0; // no buffer touched at all
    }
    return value(matcher.group(1)) + value(matcher.group(2));
  }

  private static long value(String group) {
    return group == null ? 0 : Long.parseLong(group);
  }

  private static long[] measure(Runnable call) {
    recording = new long[2];
    try {
      call.run();
      return recording;
    } finally {
      recording = null;
    }
  }

  @Test
  @DisplayName("No call touches more buffers on a session of 100,000 events than on one of 1,000, forks included")
  void buffersDoNotGrowWithTheSession() {
    Map<String, Runnable> shortCalls = shortSession.calls();
    Map<String, Runnable> longCalls = longSession.calls();
    Map<String, String> report = new LinkedHashMap<>();
    List<String> grown = new ArrayList<>();
    for (String name : shortCalls.keySet()) {
      measure(shortCalls.get(name)); // warm both up: caches, plans
      measure(longCalls.get(name));
      long[] small = measure(shortCalls.get(name));
      long[] large = measure(longCalls.get(name));
      report.put(name, small[0] + " buffers at " + SHORT + ", " + large[0] + " at " + LONG + " (" + large[1]
          + " statements)");
      if (large[0] > 2 * small[0] + 16) {
        grown.add(name + ": " + report.get(name));
      }
    }
    report.forEach((name, line) -> System.out.println("buffers per call: " + name + ": " + line));
    assertThat(FAILED).as("statements that could not be explained").isEmpty();
    assertThat(grown).as("calls whose work grows with the session's length").isEmpty();
  }
}
