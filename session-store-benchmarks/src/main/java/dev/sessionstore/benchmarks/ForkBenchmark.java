package dev.sessionstore.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How long does forking a session with a long log take? The PostgreSQL store forks by copying the parent's events
 * and summaries server-side in one statement ({@code INSERT … SELECT}), so the cost grows with the fork point; this
 * measures it for a 100,000-event session, next to the in-memory store as a floor. Each invocation forks the whole
 * parent log; the fork is deleted after each invocation, outside the measurement.
 *
 * <p>Run it by hand (builds never run benchmarks), against the PostgreSQL named by
 * {@code SESSION_STORE_BENCH_JDBC_URL} (default {@value #DEFAULT_URL}); it uses and then drops a schema of its own:
 * <pre>{@code
 * mvn -pl session-store-benchmarks -am package -DskipTests
 * java -jar session-store-benchmarks/target/benchmarks.jar ForkBenchmark
 * java -jar session-store-benchmarks/target/benchmarks.jar ForkBenchmark -p kind=POSTGRESQL -p events=10000
 * }</pre>
 * Read the {@code p0.50} line of each result: the median time of one fork.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 10)
@Measurement(iterations = 3, time = 20)
@Fork(value = 1, jvmArgsAppend = "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
public class ForkBenchmark {

  static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  private static final String SCHEMA = "session_store_fork_benchmark";
  private static final String PARENT = "parent";
  private static final int BATCH = 1_000;

  /** The stores compared. */
  public enum StoreKind {
    POSTGRESQL,
    IN_MEMORY
  }

  @Param({"POSTGRESQL", "IN_MEMORY"})
  public StoreKind kind;

  @Param("100000")
  public int events;

  private HikariDataSource pool;
  private SessionStore store;
  private Session fork;

  @Setup(Level.Trial)
  public void fillParent() throws SQLException {
    store = switch (kind) {
      case POSTGRESQL -> {
        pool = pool();
        dropSchema();
        yield JdbcSessionStore.builder().dataSource(pool).schema(SCHEMA).build();
      }
      case IN_MEMORY -> InMemorySessionStore.builder().build();
    };
    for (int first = 0; first < events; first += BATCH) {
      List<NewEvent> batch = new ArrayList<>(BATCH);
      for (int i = first; i < Math.min(events, first + BATCH); i++) {
        batch.add(NewEvent.of(i % 2 == 0 ? "user_message" : "assistant_message",
            Json.of("{\"turn\":" + i + ",\"text\":\"a message of typical length, about a sentence or two long, "
                + "standing in for what a model or a user says in one turn\"}")).withId("e-" + i));
      }
      store.events().appendAll(PARENT, batch);
    }
  }

  @Benchmark
  public Session forkWholeLog() {
    fork = store.sessions().fork(PARENT, events);
    return fork;
  }

  @TearDown(Level.Invocation)
  public void deleteFork() {
    store.sessions().delete(fork.id());
  }

  @TearDown(Level.Trial)
  public void close() throws SQLException {
    store.close();
    if (pool != null) {
      dropSchema();
      pool.close();
    }
  }

  private static HikariDataSource pool() {
    String url = System.getenv("SESSION_STORE_BENCH_JDBC_URL");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url == null || url.isBlank() ? DEFAULT_URL : url);
    config.setMaximumPoolSize(4);
    return new HikariDataSource(config);
  }

  private void dropSchema() throws SQLException {
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
    }
  }
}
