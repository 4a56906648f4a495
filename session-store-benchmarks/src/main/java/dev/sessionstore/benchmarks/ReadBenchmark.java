package dev.sessionstore.benchmarks;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Revival;
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
 * How long do the reads an agent runtime makes of a long conversation take? Each benchmark answers it for one read:
 * <ul>
 *   <li>{@link #readTail}: the last {@value #TAIL} events, oldest-first, as a runtime rebuilds a model's context
 *       window ({@code EventQuery.all().last(20)});
 *   <li>{@link #readPageAfterCursor}: the next {@value #PAGE} events after a cursor in the middle of the log, as a
 *       consumer pages forward ({@code EventQuery.all().after(cursor).first(100)});
 *   <li>{@link #revive}: the latest summary and the {@value #AFTER_SUMMARY} events after it, as an agent restarting
 *       on a compacted session reads its working set ({@code summaries().revive}).
 * </ul>
 *
 * <p>Setup: a fresh store per trial with one session of {@code events} (default 10,000) chat turns of about 150
 * characters of JSON each, and one summary covering all but the last {@value #AFTER_SUMMARY}. Nothing writes during
 * the measurement, so every call reads the same rows (for PostgreSQL, from its buffer cache).
 *
 * <p>Run it by hand (builds never run benchmarks); see {@link StoreKind} for the database it uses:
 * <pre>{@code
 * mvn -pl session-store-benchmarks -am package -DskipTests
 * java -jar session-store-benchmarks/target/benchmarks.jar ReadBenchmark
 * java -jar session-store-benchmarks/target/benchmarks.jar ReadBenchmark.revive -p kind=POSTGRESQL -p events=100000
 * }</pre>
 * Read the {@code p0.50} line of each result: the median time of one read, in microseconds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
public class ReadBenchmark {

  static final int TAIL = 20;
  static final int PAGE = 100;
  static final int AFTER_SUMMARY = 50;
  private static final String SESSION = "conversation";
  private static final EventQuery TAIL_QUERY = EventQuery.all().last(TAIL);

  @Param({"IN_MEMORY", "POSTGRESQL"})
  public StoreKind kind;

  @Param("10000")
  public int events;

  private BenchmarkStore opened;
  private SessionStore store;
  private EventQuery pageQuery;

  @Setup(Level.Trial)
  public void fill() {
    if (events <= AFTER_SUMMARY + PAGE) {
      throw new IllegalArgumentException("events must be above " + (AFTER_SUMMARY + PAGE) + ", was " + events);
    }
    opened = kind.open();
    store = opened.store();
    Events.fill(store, SESSION, events);
    store.summaries().put(SESSION, NewSummary.of(1, events - AFTER_SUMMARY,
        Json.of("{\"text\":\"the conversation so far, condensed by the agent's summarizer\"}")));
    pageQuery = EventQuery.all().after(events / 2).first(PAGE);
  }

  @Benchmark
  public EventPage readTail() {
    return store.events().read(SESSION, TAIL_QUERY);
  }

  @Benchmark
  public EventPage readPageAfterCursor() {
    return store.events().read(SESSION, pageQuery);
  }

  @Benchmark
  public Revival revive() {
    return store.summaries().revive(SESSION);
  }

  @TearDown(Level.Trial)
  public void close() throws SQLException {
    opened.close();
  }
}
