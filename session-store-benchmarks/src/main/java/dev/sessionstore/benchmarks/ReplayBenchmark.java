package dev.sessionstore.benchmarks;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
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
 * How long does a retried append take when the first attempt was stored after all (a timeout, a lost reply)? The
 * retry sends the same event again; the store finds it by id, compares its content, stores nothing and returns the
 * stored event (idempotent replay). Compare with {@link AppendBenchmark#appendOne}, the first attempt.
 *
 * <p>Setup: a fresh store per trial with one session of {@code events} (default 10,000) chat turns; each call
 * appends the same {@code NewEvent} instance that stored the last of them, as a retry does. Nothing is stored during
 * the measurement.
 *
 * <p>Run it by hand (builds never run benchmarks); see {@link StoreKind} for the database it uses:
 * <pre>{@code
 * mvn -pl session-store-benchmarks -am package -DskipTests
 * java -jar session-store-benchmarks/target/benchmarks.jar ReplayBenchmark
 * }</pre>
 * Read the {@code p0.50} line of each result: the median time of one replay, in microseconds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
public class ReplayBenchmark {

  private static final String SESSION = "conversation";

  @Param({"IN_MEMORY", "POSTGRESQL"})
  public StoreKind kind;

  @Param("10000")
  public int events;

  private BenchmarkStore opened;
  private SessionStore store;
  private NewEvent stored;

  @Setup(Level.Trial)
  public void fill() {
    opened = kind.open();
    store = opened.store();
    Events.fill(store, SESSION, events - 1);
    stored = Events.turn(events - 1);
    store.events().append(SESSION, stored);
  }

  @Benchmark
  public Event replayStoredEvent() {
    return store.events().append(SESSION, stored);
  }

  @TearDown(Level.Trial)
  public void close() throws SQLException {
    opened.close();
  }
}
