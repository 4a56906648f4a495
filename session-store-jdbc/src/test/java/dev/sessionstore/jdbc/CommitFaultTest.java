package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.PGConnection;

/**
 * Connections terminated while PostgreSQL commits an append (guarantee 17 of docs/guarantees.md). Every connection of
 * the store runs with {@code commit_delay = 100000; commit_siblings = 0}, so each commit that writes lingers 100 ms in
 * the server with {@code COMMIT}, or the auto-committed append call, as its query; a killer thread watches
 * {@code pg_stat_activity} for exactly the backends of this test's pool and terminates one such backend per chosen
 * append, which the server may or may not have committed.
 * Every append's reported outcome (the events returned, or the exception's type) must match what is stored.
 */
class CommitFaultTest {

  private static final int APPENDS = 120;

  private final TestSchema schema = new TestSchema();
  private HikariDataSource pool;

  @AfterEach
  void dropSchema() {
    schema.close();
    if (pool != null) {
      pool.close();
    }
  }

  /** Batches of one event (the one-event call) and of two (the batch call). */
  @ParameterizedTest(name = "batches of {0}")
  @ValueSource(ints = {1, 2})
  @DisplayName("Every append whose commit lost its connection reports what is stored: its events, or an unknown"
      + " outcome; never a failure for a stored batch")
  void reportedOutcomesMatchWhatIsStored(int batchSize) throws Exception {
    String applicationName = TestDatabase.uniqueName("commit_fault");
    Set<Integer> pids = ConcurrentHashMap.newKeySet();
    pool = pool(applicationName);
    SessionStore store = schema.store(recordingPids(pool, pids),
        builder -> builder.deadlineSweepInterval(Duration.ofHours(1)).retryTimeout(Duration.ofSeconds(20)));
    String sessionId = "s-" + applicationName;

    AtomicInteger current = new AtomicInteger(-1);
    Set<Integer> killed = ConcurrentHashMap.newKeySet();
    Killer killer = new Killer(pids, current, killed);
    killer.start();
    Map<Integer, Object> outcomes = new LinkedHashMap<>();
    long lastSeq = 0;
    try {
      for (int i = 0; i < APPENDS; i++) {
        List<NewEvent> batch = new ArrayList<>();
        for (int j = 0; j < batchSize; j++) {
          batch.add(NewEvent.of("step").withId("e-" + i + "-" + j));
        }
        current.set(i);
        try {
          List<Event> appended = i % 2 == 0 && lastSeq >= 0
              ? store.events().appendAll(sessionId, batch, lastSeq)
              : store.events().appendAll(sessionId, batch);
          outcomes.put(i, appended);
          lastSeq = appended.get(batchSize - 1).seq();
        } catch (StoreFailureException e) {
          outcomes.put(i, e);
          lastSeq = -1; // unknown from here: the next appends do not state an expected seq until one returns
        } finally {
          current.set(-1);
        }
      }
    } finally {
      killer.stop();
    }

    Map<String, Long> stored = storedSeqs(sessionId);
    int resolved = 0;
    int reportedUnknown = 0;
    int reportedFailed = 0;
    List<String> mismatches = new ArrayList<>();
    for (Map.Entry<Integer, Object> outcome : outcomes.entrySet()) {
      int i = outcome.getKey();
      List<Long> seqs = new ArrayList<>();
      for (int j = 0; j < batchSize; j++) {
        seqs.add(stored.get("e-" + i + "-" + j));
      }
      boolean whole = seqs.stream().allMatch(seq -> seq != null);
      boolean none = seqs.stream().allMatch(seq -> seq == null);
      if (outcome.getValue() instanceof List<?> returned) {
        List<Long> returnedSeqs = returned.stream().map(event -> ((Event) event).seq()).toList();
        if (!returnedSeqs.equals(seqs)) {
          mismatches.add("append " + i + " returned seqs " + returnedSeqs + " but stored " + seqs);
        }
        if (killed.contains(i)) {
          resolved++;
        }
      } else if (outcome.getValue() instanceof OutcomeUnknownException) {
        reportedUnknown++;
        if (!whole && !none) {
          mismatches.add("append " + i + " is partly stored: " + seqs);
        }
      } else {
        reportedFailed++;
        if (!none) {
          mismatches.add("append " + i + " failed with " + outcome.getValue() + " but stored " + seqs);
        }
      }
    }
    List<Long> allSeqs = stored.values().stream().sorted().toList();
    System.out.printf("CommitFaultTest: %d appends of %d events, %d faults injected during COMMIT, %d outcomes"
            + " resolved by the store, %d reported unknown, %d reported failed, %d events stored, %d mismatches%n",
        APPENDS, batchSize, killer.faults.get(), resolved, reportedUnknown, reportedFailed, stored.size(),
        mismatches.size());

    assertThat(mismatches).isEmpty();
    assertThat(killer.faults.get()).as("faults injected").isGreaterThanOrEqualTo(APPENDS / 2);
    assertThat(allSeqs).as("gapless seqs").containsExactlyElementsOf(
        java.util.stream.LongStream.rangeClosed(1, allSeqs.size()).boxed().toList());
  }

  /** A pool of this test's own whose every connection delays its commits by 100 ms. */
  private HikariDataSource pool(String applicationName) {
    HikariDataSource template = schema.pool(1);
    HikariConfig config = new HikariConfig();
    template.copyStateTo(config);
    config.setPoolName(applicationName);
    config.setMaximumPoolSize(4);
    config.setConnectionInitSql("SET commit_delay = 100000; SET commit_siblings = 0");
    config.addDataSourceProperty("ApplicationName", applicationName);
    config.setConnectionTimeout(2_000);
    HikariDataSource pool = new HikariDataSource(config);
    template.close();
    return pool;
  }

  /** {@code pool}, recording the backend pid of every connection it lends. */
  private static DataSource recordingPids(HikariDataSource pool, Set<Integer> pids) {
    return (DataSource) Proxy.newProxyInstance(CommitFaultTest.class.getClassLoader(),
        new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
          try {
            Object result = method.invoke(pool, arguments);
            if (result instanceof Connection connection) {
              pids.add(connection.unwrap(PGConnection.class).getBackendPID());
            }
            return result;
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  /** The seq of every stored event of the session, by event id, read past the store. */
  private Map<String, Long> storedSeqs(String sessionId) throws SQLException {
    Map<String, Long> seqs = new LinkedHashMap<>();
    try (Connection connection = TestDatabase.get().adminDataSource().getConnection();
         PreparedStatement statement = connection.prepareStatement("SELECT id, seq FROM \"" + schema.name()
             + "\".session_store_events WHERE session_id = ? ORDER BY seq")) {
      statement.setString(1, sessionId);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          assertThat(seqs.put(rows.getString(1), rows.getLong(2))).as("one row per id").isNull();
        }
      }
    }
    return seqs;
  }

  /**
   * Terminates, for two appends in three, one backend of the test's pool while it commits an append: at most
   * one per append, so that the store's retry can settle the doubt.
   */
  private static final class Killer {

    private final Set<Integer> pids;
    private final AtomicInteger current;
    private final Set<Integer> killed;
    private final AtomicInteger faults = new AtomicInteger();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    Killer(Set<Integer> pids, AtomicInteger current, Set<Integer> killed) {
      this.pids = pids;
      this.current = current;
      this.killed = killed;
      this.thread = new Thread(this::run, "commit-fault-killer");
    }

    void start() {
      thread.start();
    }

    void stop() throws InterruptedException {
      running = false;
      thread.join();
      assertThat(failure).as("killer thread failure").isNull();
    }

    private void run() {
      try (Connection connection = TestDatabase.get().adminDataSource().getConnection();
           PreparedStatement find = connection.prepareStatement("SELECT pid FROM pg_stat_activity"
               + " WHERE pid = ANY(?) AND state = 'active'"
               + " AND (query = 'COMMIT' OR query LIKE '%session_store_append_events(%'"
               + " OR query LIKE '%session_store_append_fresh(%' OR query LIKE '%session_store_append_fresh_one(%')");
           PreparedStatement terminate = connection.prepareStatement("SELECT pg_terminate_backend(?)")) {
        while (running) {
          int append = current.get();
          if (append < 0 || append % 3 == 0 || killed.contains(append)) {
            Thread.sleep(1); // polling pg_stat_activity; nothing to observe for this append
            continue;
          }
          find.setArray(1, connection.createArrayOf("integer", pids.toArray()));
          Integer target = null;
          try (ResultSet rows = find.executeQuery()) {
            if (rows.next()) {
              target = rows.getInt(1);
            }
          }
          if (target != null && current.get() == append) {
            terminate.setInt(1, target);
            try (ResultSet rows = terminate.executeQuery()) {
              if (rows.next() && rows.getBoolean(1)) {
                killed.add(append);
                faults.incrementAndGet();
              }
            }
          }
        }
      } catch (SQLException | RuntimeException e) {
        failure = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
