package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.benchmarks.Events;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The graph-step rows of one runtime (issue 36): a step (get the latest checkpoint, put its successor) on the
 * library's saver against the runtime's own PostgreSQL saver on the same database, on threads of
 * {@link #DEPTHS} checkpoints, and {@value #WRITERS} graph threads stepping at once. Both sides' threads are filled
 * identically, by steps through the saver itself, and their tables analyzed before anything is measured.
 *
 * <p>Measured steps add checkpoints: a depth's steps are spread over as many threads of that depth as keep each
 * thread within a tenth over it (one step per thread at 10, up to 100 per thread at 1,000, up to 1,000 at 10,000).
 * After the concurrent phases, every thread the writers stepped is read back through a new instance of each saver
 * and compared with the ids its steps put, in order: a lost, extra or misordered checkpoint is reported in the row.
 */
final class GraphSteps {

  static final int[] DEPTHS = {10, 1_000, 10_000};
  /** The node a step's checkpoint was made after, and the node it goes on to: a tool-calling loop's. */
  static final String NODE = "agent";
  static final String NEXT_NODE = "tools";
  /** The messages in every checkpoint's state. */
  static final int MESSAGES = 8;
  static final int WRITERS = 16;
  private static final int STEPS = 200;
  private static final int WARMUP = 20;
  private static final int PHASES = 5;
  private static final String INTACT = "all ";

  private final String runtime;
  private final String peer;

  /**
   * @param runtime the runtime's name as rows print it, e.g. {@code LangGraph4j 1.8.17}
   * @param peer    the runtime's PostgreSQL saver as rows print it, e.g. {@code PostgresSaver}
   */
  GraphSteps(String runtime, String peer) {
    this.runtime = runtime;
    this.peer = peer;
  }

  /**
   * Runs every row on {@code library} and {@code baseline}, which start on empty databases; {@code settle} runs after
   * each fill, before anything is measured (analyzing the tables, as autovacuum would soon after a load).
   */
  void run(Bench bench, Results results, GraphSaverSide library, GraphSaverSide baseline, Settle settle,
      String description) throws Exception {
    String state = Numbers.count(library.stateBytes()) + " B state (library), "
        + Numbers.count(baseline.stateBytes()) + " B (" + peer + ")";
    for (int full : DEPTHS) {
      depth(bench, results, library, baseline, settle, bench.scale().fill(full), description, state);
    }
    concurrent(bench, results, library, baseline, description, state);
  }

  private void depth(Bench bench, Results results, GraphSaverSide library, GraphSaverSide baseline, Settle settle,
      int depth, String description, String state) throws Exception {
    int warmup = bench.scale().warmup(WARMUP);
    int steps = warmup + bench.scale().calls(STEPS);
    int stepsPerThread = Math.max(1, depth / 10);
    int threads = (steps + stepsPerThread - 1) / stepsPerThread;
    String prefix = "depth-" + depth + "-";
    for (int t = 0; t < threads; t++) {
      for (int c = 0; c < depth; c++) {
        library.step(prefix + t);
        baseline.step(prefix + t);
      }
    }
    settle.run();
    Sides sides = Interleave.pairs(warmup, steps - warmup,
        Trial.timed(i -> library.step(prefix + i / stepsPerThread)),
        Trial.timed(i -> baseline.step(prefix + i / stepsPerThread)));
    double faster = sides.latencyRatio();
    String name = runtime + ": graph step (get latest + put) at " + Numbers.count(depth)
        + " checkpoints, vs its " + peer + " on the same database";
    results.add(new Row(name, Numbers.percentiles(sides.library()),
        peer + " " + Numbers.percentiles(sides.baseline()), Numbers.ratio(faster) + " faster", "≥ 1× (not slower)",
        faster >= 1));
    results.baseline(name, description + " " + state + "; " + threads + " thread(s) of " + Numbers.count(depth)
        + " checkpoints per side, filled by steps through each saver, " + stepsPerThread
        + " measured or warm-up step(s) per thread.");
  }

  private void concurrent(Bench bench, Results results, GraphSaverSide library, GraphSaverSide baseline,
      String description, String state) throws Exception {
    Map<String, List<String>> libraryPuts = new ConcurrentHashMap<>();
    Map<String, List<String>> baselinePuts = new ConcurrentHashMap<>();
    Sides sides = Interleave.phases(1, bench.scale().calls(PHASES), bench.scale().phase(), WRITERS,
        ownThread(library, "writer-", libraryPuts), ownThread(baseline, "writer-", baselinePuts));
    String libraryCheck = readBack(library, libraryPuts);
    boolean libraryIntact = libraryCheck.startsWith(INTACT);
    String baselineCheck = readBack(baseline, baselinePuts);
    double ratio = sides.throughputRatio(1);
    String name = runtime + ": " + WRITERS + " graph threads stepping at once, vs its " + peer;
    results.add(new Row(name, cell(sides.library()) + " · " + libraryCheck,
        peer + " " + cell(sides.baseline()) + " · " + baselineCheck, Numbers.ratio(ratio),
        "no errors, every checkpoint read back in order", sides.library().errors() == 0 && libraryIntact));
    results.baseline(name, description + " " + state + "; " + WRITERS + " threads, each stepping a graph thread "
        + "of its own (new each phase, starting empty) as fast as the saver returns, in timed phases interleaved "
        + "with the other side's. Afterwards each thread is read back through a new instance of the saver and "
        + "compared with the ids its steps put, newest first.");
  }

  /** A trial whose writer thread steps a graph thread of its own, recording the ids it put in order. */
  private static Trial ownThread(GraphSaverSide side, String prefix, Map<String, List<String>> puts) {
    AtomicInteger threads = new AtomicInteger();
    ThreadLocal<String> own = ThreadLocal.withInitial(() -> prefix + threads.getAndIncrement());
    return Trial.timed(i -> {
      String thread = own.get();
      String id = side.step(thread);
      puts.computeIfAbsent(thread, key -> Collections.synchronizedList(new ArrayList<>())).add(id);
    });
  }

  /** Compares what {@code side} stored with what its steps put: all read back in order, else what differs. */
  private static String readBack(GraphSaverSide side, Map<String, List<String>> puts) throws Exception {
    long checkpoints = 0;
    long lost = 0;
    long extra = 0;
    int misordered = 0;
    for (Map.Entry<String, List<String>> thread : puts.entrySet()) {
      List<String> expected = new ArrayList<>(thread.getValue());
      Collections.reverse(expected);
      List<String> stored = side.reread(thread.getKey());
      checkpoints += expected.size();
      lost += expected.stream().filter(id -> !stored.contains(id)).count();
      extra += stored.stream().filter(id -> !expected.contains(id)).count();
      if (!stored.equals(expected)) {
        misordered++;
      }
    }
    if (lost == 0 && extra == 0 && misordered == 0) {
      return INTACT + Numbers.count(checkpoints) + " checkpoints of " + puts.size() + " threads read back in order";
    }
    return Numbers.count(lost) + " of " + Numbers.count(checkpoints) + " checkpoints lost, " + extra + " extra, "
        + misordered + " of " + puts.size() + " threads not as put";
  }

  /**
   * The state a step puts after {@code latest}: the step's number (one more than the latest's, 0 on a new thread)
   * and a conversation of {@value #MESSAGES} messages of {@link Events#TEXT}.
   */
  static Map<String, Object> state(Optional<Map<String, Object>> latest) {
    int step = latest.map(state -> ((Number) state.get("step")).intValue() + 1).orElse(0);
    List<String> messages = new ArrayList<>(Collections.nCopies(MESSAGES, Events.TEXT));
    Map<String, Object> state = new HashMap<>();
    state.put("step", step);
    state.put("messages", messages);
    return state;
  }

  /** What runs between filling the threads and measuring. */
  @FunctionalInterface
  interface Settle {
    void run() throws Exception;
  }

  private static String cell(Samples samples) {
    String cell = Numbers.rate(samples.perSecond(1), "steps") + " · " + Numbers.percentiles(samples) + " · "
        + samples.errors() + " errors";
    return samples.firstError() == null ? cell : cell + " (first: " + samples.firstError() + ")";
  }
}
