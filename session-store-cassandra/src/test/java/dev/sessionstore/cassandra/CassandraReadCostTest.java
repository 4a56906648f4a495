package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.cql.TraceEvent;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A Cassandra append, tail read and revival do the same work on a session of 10,000 events as on one of 1,000: each
 * statement the store runs during the call is traced (query tracing, through a driver session that turns tracing on
 * for every statement it executes), and the call's requests, result pages (every page the driver fetched, from each
 * result's execution infos) and the rows the replicas read (the traces' "Read N live rows" events, every replica
 * and the Paxos reads of the conditional batch included) are summed. Both sessions live in one table; the test fails
 * when the long session's count is more than twice the short one's plus 16 rows (a page, a statement more at most).
 */
class CassandraReadCostTest {

  private static final int SHORT = 1_000;
  private static final int LONG = 10_000;
  private static final int BATCH = 100;
  private static final Pattern LIVE_ROWS = Pattern.compile("Read (\\d+) live rows");

  private static CqlSession driver;
  private static SessionStore store;
  /** The results of the call being recorded; {@code null} when not recording. */
  private static volatile List<ResultSet> recording;

  @BeforeAll
  static void fill() {
    driver = CqlSession.builder().addContactPoints(SharedCluster.cluster().contactPoints())
        .withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withInt(DefaultDriverOption.REQUEST_TRACE_ATTEMPTS, 100)
            .withDuration(DefaultDriverOption.REQUEST_TRACE_INTERVAL, Duration.ofMillis(20))
            .build())
        .build();
    CqlSession traced = (CqlSession) Proxy.newProxyInstance(CqlSession.class.getClassLoader(),
        new Class<?>[] {CqlSession.class}, (proxy, method, args) -> invoke(method, args));
    store = CassandraSessionStore.builder().session(traced).keyspace("session_store_tests")
        .namespace(UUID.randomUUID().toString()).replicationFactor(SharedCluster.replicationFactor())
        // the deadline sweeper's statements would be counted with the call's: none runs within the test
        .sweepInterval(Duration.ofDays(1)).build();
    fill("short", SHORT);
    fill("long", LONG);
  }

  @AfterAll
  static void close() {
    if (store != null) {
      store.close();
    }
    if (driver != null) {
      driver.close();
    }
  }

  /** {@code length} events in batches of {@link #BATCH}, a summary up to 20 events before the end. */
  private static void fill(String sessionId, int length) {
    for (int from = 0; from < length; from += BATCH) {
      int first = from;
      store.events().appendAll(sessionId, IntStream.range(first, first + BATCH)
          .mapToObj(i -> NewEvent.of("message", Json.of("{\"text\":\"message " + i + "\"}")).withId("e" + i))
          .toList());
    }
    store.summaries().put(sessionId, NewSummary.of(1, length - 20, Json.of("{\"text\":\"so far\"}")));
  }

  private static Object invoke(Method method, Object[] args) throws Throwable {
    List<ResultSet> results = recording;
    boolean traced = results != null && method.getName().equals("execute") && args != null && args.length == 1
        && args[0] instanceof Statement<?>;
    if (traced) {
      args = new Object[] {((Statement<?>) args[0]).setTracing(true)};
    }
    Object result;
    try {
      result = method.invoke(driver, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
    if (traced) {
      results.add((ResultSet) result);
    }
    return result;
  }

  /** The requests, pages and replica rows of {@code call} on {@code sessionId}. */
  private static Cost measure(String sessionId, Consumer<String> call) {
    List<ResultSet> results = new ArrayList<>();
    recording = results;
    try {
      call.accept(sessionId);
    } finally {
      recording = null;
    }
    long pages = 0;
    long rows = 0;
    for (ResultSet result : results) {
      for (ExecutionInfo page : result.getExecutionInfos()) {
        pages++;
        for (TraceEvent event : page.getQueryTrace().getEvents()) {
          Matcher matcher = LIVE_ROWS.matcher(String.valueOf(event.getActivity()));
          if (matcher.find()) {
            rows += Long.parseLong(matcher.group(1));
          }
        }
      }
    }
    return new Cost(results.size(), pages, rows);
  }

  @Test
  @DisplayName("An append, a tail read and a revival read no more rows and pages on 10,000 events than on 1,000")
  void workDoesNotGrowWithTheSession() {
    Map<String, Consumer<String>> calls = new LinkedHashMap<>();
    int[] appended = new int[1];
    calls.put("append", id -> store.events().append(id, NewEvent.of("message").withId("new-" + appended[0]++)));
    calls.put("tail read (last 50)", id -> store.events().read(id, dev.sessionstore.EventQuery.all().last(50)));
    calls.put("revival", id -> store.summaries().revive(id));
    List<String> grown = new ArrayList<>();
    for (Map.Entry<String, Consumer<String>> call : calls.entrySet()) {
      measure("short", call.getValue()); // warm up: prepared statements, caches, the node's memtables
      measure("long", call.getValue());
      Cost small = measure("short", call.getValue());
      Cost large = measure("long", call.getValue());
      String line = call.getKey() + ": " + small + " at " + SHORT + " events, " + large + " at " + LONG;
      System.out.println("read cost per call on " + SharedCluster.cluster().size() + " node(s): " + line);
      assertThat(small.rows()).as("rows the traces show for " + call.getKey()).isPositive();
      if (large.rows() > 2 * small.rows() + 16 || large.pages() > small.pages() + 1
          || large.requests() > small.requests() + 1) {
        grown.add(line);
      }
    }
    assertThat(grown).as("calls whose work grows with the session's length").isEmpty();
  }

  /** What one call cost: statements executed, result pages fetched, rows the replicas read. */
  private record Cost(long requests, long pages, long rows) {
    @Override
    public String toString() {
      return requests + " requests, " + pages + " pages, " + rows + " rows read";
    }
  }
}
