package dev.sessionstore.benchmarks;

import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import java.sql.SQLException;
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
 * <p>Run it by hand (builds never run benchmarks); see {@link StoreKind} for the database it uses:
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

  private static final String PARENT = "parent";

  @Param({"IN_MEMORY", "POSTGRESQL"})
  public StoreKind kind;

  @Param("100000")
  public int events;

  private BenchmarkStore opened;
  private SessionStore store;
  private Session fork;

  @Setup(Level.Trial)
  public void fillParent() {
    opened = kind.open();
    store = opened.store();
    Events.fill(store, PARENT, events);
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
    opened.close();
  }
}
