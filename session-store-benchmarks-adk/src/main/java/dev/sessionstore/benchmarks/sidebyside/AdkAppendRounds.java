package dev.sessionstore.benchmarks.sidebyside;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import com.sun.management.ThreadMXBean;
import dev.sessionstore.SessionStore;
import dev.sessionstore.adk.SessionStoreSessionService;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.DoublePredicate;

/**
 * The question both ADK measures ask of a store: how long do {@value #THREADS} threads take to append
 * {@value #EVENTS} events each through ADK's {@code BaseSessionService#appendEvent}, every thread on a new session of
 * its own (a user per thread), through {@code session-store-adk}'s {@link SessionStoreSessionService} on that store
 * (its default: no scheduler, the store calls on the appending thread) against ADK's own
 * {@link InMemorySessionService}? One call of a side is one round: its {@value #THREADS} sessions are created, untimed,
 * then the round's wall time is measured from the first thread's start to the last append's return. Each event carries
 * model text and a state delta with a session key and a {@code user:} key, as an agent's turn does. Rounds of the two
 * sides alternate in random order ({@link Interleave#pairs}). Around each round the CPU time and the bytes allocated
 * by all of the JVM's Java threads are read, so that the row also says what an append costs whatever else the machine
 * runs. After the rounds every session of the library's last round is read back through {@code getSession}: all its
 * events and its last state must be there.
 */
final class AdkAppendRounds {

  static final int THREADS = 16;
  static final int EVENTS = 20;
  private static final int APPENDS = THREADS * EVENTS;
  private static final String APP = "bench";
  private static final ThreadMXBean JVM_THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

  private AdkAppendRounds() {
  }

  /**
   * Runs {@code warmup} then {@code rounds} rounds of each side, the library's service over {@code store}, and adds
   * the row {@code name} with {@code target}: met when {@code met} accepts the ratio, ADK's p50 round time over the
   * library's (as every latency row of the page: above 1 when the library is faster), and every append of the checked
   * round reads back.
   */
  static void run(SessionStore store, int warmup, int rounds, String name, String target, DoublePredicate met,
      Results results) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      Side library = new Side("library", SessionStoreSessionService.builder(store).build(), pool);
      Side baseline = new Side("adk", new InMemorySessionService(), pool);
      Sides sides = Interleave.pairs(warmup, rounds, library::round, baseline::round);
      int stored = library.storedInLastRound();
      boolean intact = stored == APPENDS;
      double ratio = sides.latencyRatio();
      results.add(new Row(name,
          Numbers.percentiles(sides.library()) + " · " + library.cost(rounds) + " · " + Numbers.count(stored)
              + " of " + Numbers.count(APPENDS) + " appends read back" + (intact ? "" : " (NOT all)"),
          "ADK " + Numbers.percentiles(sides.baseline()) + " · " + baseline.cost(rounds),
          Numbers.ratio(ratio), target, intact && met.test(ratio),
          Numbers.count(warmup) + " rounds, then " + Numbers.count(rounds)));
    } finally {
      pool.shutdownNow();
    }
  }

  /** One side: its service, the rounds it ran and what they cost. Used by the harness's one thread. */
  private static final class Side {

    private final String prefix;
    private final BaseSessionService service;
    private final ExecutorService pool;
    private final List<long[]> costs = new ArrayList<>();
    private List<Session> lastRound = List.of();

    Side(String prefix, BaseSessionService service, ExecutorService pool) {
      this.prefix = prefix;
      this.service = service;
      this.pool = pool;
    }

    /** Round {@code i}: creates its sessions, untimed, then returns the wall nanoseconds of their appends. */
    long round(int i) throws Exception {
      List<Session> sessions = new ArrayList<>(THREADS);
      for (int thread = 0; thread < THREADS; thread++) {
        sessions.add(service.createSession(APP, "user-" + thread, Map.of(), prefix + "-" + i + "-" + thread)
            .blockingGet());
      }
      List<Future<?>> appends = new ArrayList<>(THREADS);
      long[] before = jvmThreadCosts();
      long start = System.nanoTime();
      for (Session session : sessions) {
        appends.add(pool.submit(() -> appendAll(session)));
      }
      for (Future<?> append : appends) {
        append.get();
      }
      long elapsed = System.nanoTime() - start;
      long[] after = jvmThreadCosts();
      costs.add(new long[] {after[0] - before[0], after[1] - before[1]});
      lastRound = sessions;
      return elapsed;
    }

    private void appendAll(Session session) {
      for (int turn = 0; turn < EVENTS; turn++) {
        ConcurrentHashMap<String, Object> delta = new ConcurrentHashMap<>();
        delta.put("turn", turn);
        delta.put("user:last_city", "Paris " + turn);
        Event event = Event.builder().id(Event.generateEventId()).invocationId("inv-" + turn).author("agent")
            .content(Content.fromParts(Part.fromText("The weather in Paris is sunny, turn " + turn)))
            .actions(EventActions.builder().stateDelta(delta).build()).build();
        service.appendEvent(session, event).blockingGet();
      }
    }

    /** How many of the last round's appends a fresh read finds, with the state of the last one. */
    int storedInLastRound() {
      int stored = 0;
      for (Session appended : lastRound) {
        Session read = service.getSession(APP, appended.userId(), appended.id(), Optional.empty()).blockingGet();
        boolean lastState = Integer.valueOf(EVENTS - 1).equals(read.state().get("turn"))
            && ("Paris " + (EVENTS - 1)).equals(read.state().get("user:last_city"));
        stored += lastState ? read.events().size() : 0;
      }
      return stored;
    }

    /** {@code CPU 12.3 µs · 9,321 B per append}: the mean over the last {@code rounds} rounds. */
    String cost(int rounds) {
      List<long[]> measured = costs.subList(Math.max(0, costs.size() - rounds), costs.size());
      double cpu = measured.stream().mapToLong(cost -> cost[0]).average().orElse(Double.NaN);
      double bytes = measured.stream().mapToLong(cost -> cost[1]).average().orElse(Double.NaN);
      return "CPU " + Numbers.plain(cpu / APPENDS / 1_000) + " µs · " + Numbers.count(Math.round(bytes / APPENDS))
          + " B per append";
    }
  }

  /** The CPU nanoseconds and allocated bytes of the JVM's live Java threads so far, summed. */
  private static long[] jvmThreadCosts() {
    long[] ids = JVM_THREADS.getAllThreadIds();
    long cpu = 0;
    for (long nanos : JVM_THREADS.getThreadCpuTime(ids)) {
      cpu += Math.max(0, nanos);
    }
    long allocated = 0;
    for (long bytes : JVM_THREADS.getThreadAllocatedBytes(ids)) {
      allocated += Math.max(0, bytes);
    }
    return new long[] {cpu, allocated};
  }
}
