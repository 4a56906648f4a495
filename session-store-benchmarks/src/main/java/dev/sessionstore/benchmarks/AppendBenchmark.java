package dev.sessionstore.benchmarks;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How long does an agent runtime wait for an append to be stored? Each benchmark answers it for one shape of
 * writing:
 * <ul>
 *   <li>{@link #appendOne}: one event per call from one thread, as a turn is recorded the moment it happens;
 *   <li>{@link #appendBatchOfTen}: ten events in one atomic call, as a turn and its tool calls are flushed together;
 *   <li>{@link #appendOneFourThreadsOwnSessions}: one event per call from four threads, each on its own session
 *       (independent agents in one process);
 *   <li>{@link #appendOneFourThreadsSharedSession}: one event per call from four threads on one session (agents
 *       sharing a conversation). Appends to a session serialize on its last seq (the PostgreSQL store holds the
 *       session row's lock until commit), so the gap to the previous benchmark is the price of that contention.
 * </ul>
 *
 * <p>Setup: a fresh, empty store per trial. Every writer moves to a new session after {@value #EVENTS_PER_SESSION}
 * events, so logs stay the size of a long conversation however fast the store appends, and every session written in
 * an iteration is deleted after it, outside the measurement. Event ids are new ({@code e-<n>}); payloads are about
 * 150 characters of JSON, parsed once.
 *
 * <p>Run it by hand (builds never run benchmarks); see {@link StoreKind} for the database it uses:
 * <pre>{@code
 * mvn -pl session-store-benchmarks -am package -DskipTests
 * java -jar session-store-benchmarks/target/benchmarks.jar AppendBenchmark
 * java -jar session-store-benchmarks/target/benchmarks.jar 'AppendBenchmark.appendOne$' -p kind=POSTGRESQL
 * }</pre>
 * Read the {@code p0.50} line of each result: the median time of one call, in microseconds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
public class AppendBenchmark {

  /** How many events a writer appends to one session before it moves to a new one. */
  static final int EVENTS_PER_SESSION = 10_000;
  private static final String SHARED = "shared-";

  @Param({"IN_MEMORY", "POSTGRESQL"})
  public StoreKind kind;

  private BenchmarkStore opened;
  private SessionStore store;
  private final AtomicInteger writers = new AtomicInteger();
  /** The writers' sessions of the current iteration. */
  private final Queue<String> written = new ConcurrentLinkedQueue<>();
  /** The number of the next event on the shared session; its session is {@code shared-<ticket / 10,000>}. */
  private final AtomicLong sharedTickets = new AtomicLong();
  private long sharedIterationStart;

  /** One writing thread: its own sessions, one after the other, and the ids of its events. */
  @State(Scope.Thread)
  public static class Writer {

    private Queue<String> written;
    private String prefix;
    private long next;
    private long generation = -1;
    private String session;

    @Setup(Level.Trial)
    public void attach(AppendBenchmark benchmark) {
      written = benchmark.written;
      prefix = "writer-" + benchmark.writers.getAndIncrement() + "-";
    }

    /** The session the next events go to; a new one every {@value #EVENTS_PER_SESSION} events. */
    String session() {
      long current = next / EVENTS_PER_SESSION;
      if (current != generation) {
        generation = current;
        session = prefix + current;
        written.add(session);
      }
      return session;
    }

    NewEvent event() {
      return Events.reply(next++);
    }

    List<NewEvent> events(int count) {
      List<NewEvent> batch = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        batch.add(Events.reply(next++));
      }
      return batch;
    }

    /** Starts the next iteration on a new session (the benchmark deletes this one). */
    @TearDown(Level.Iteration)
    public void moveOn() {
      next = (generation + 1) * EVENTS_PER_SESSION;
    }
  }

  @Setup(Level.Trial)
  public void open() {
    opened = kind.open();
    store = opened.store();
  }

  @Benchmark
  public Event appendOne(Writer writer) {
    String session = writer.session();
    return store.events().append(session, writer.event());
  }

  @Benchmark
  public List<Event> appendBatchOfTen(Writer writer) {
    String session = writer.session();
    return store.events().appendAll(session, writer.events(10));
  }

  @Benchmark
  @Threads(4)
  public Event appendOneFourThreadsOwnSessions(Writer writer) {
    String session = writer.session();
    return store.events().append(session, writer.event());
  }

  @Benchmark
  @Threads(4)
  public Event appendOneFourThreadsSharedSession() {
    long ticket = sharedTickets.getAndIncrement();
    return store.events().append(SHARED + ticket / EVENTS_PER_SESSION, Events.reply(ticket));
  }

  /**
   * Deletes the sessions written in this iteration; the next iteration starts on new ones. Only state of this scope
   * touches the store in a teardown: JMH may run one thread's trial teardown while another is still in its
   * iteration teardown.
   */
  @TearDown(Level.Iteration)
  public void deleteWritten() {
    for (String session = written.poll(); session != null; session = written.poll()) {
      store.sessions().delete(session);
    }
    long end = sharedTickets.get();
    if (end == sharedIterationStart) {
      return;
    }
    for (long generation = sharedIterationStart / EVENTS_PER_SESSION; generation <= (end - 1) / EVENTS_PER_SESSION;
        generation++) {
      store.sessions().delete(SHARED + generation);
    }
    sharedIterationStart = ((end - 1) / EVENTS_PER_SESSION + 1) * EVENTS_PER_SESSION;
    sharedTickets.set(sharedIterationStart);
  }

  @TearDown(Level.Trial)
  public void close() throws SQLException {
    opened.close();
  }
}
