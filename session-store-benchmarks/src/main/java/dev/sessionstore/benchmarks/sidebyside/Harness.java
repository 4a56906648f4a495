package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.benchmarks.StoreKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures the library side by side with its baselines (raw-JDBC twins on the same tables, Spring AI's
 * {@code JdbcChatMemoryRepository}, a {@code ConcurrentHashMap} of per-session logs) and publishes the result:
 * {@value #PAGE} (the table, the numbers behind the chart, what each baseline does) and {@value #CHART}
 * (throughput against batch size and against writer count, library and raw twin).
 *
 * <p>The PostgreSQL is the one {@link StoreKind#URL_VARIABLE} names (default {@link StoreKind#DEFAULT_URL}); its
 * user must be allowed to create schemas. Each measure creates schemas of its own ({@value PgSchema#PREFIX}…) and
 * drops them when it ends. The full run takes a few minutes on a 2-core machine:
 * <pre>{@code
 * ./mvnw -B -ntp -q -pl session-store-benchmarks -am package -DskipTests
 * java -cp session-store-benchmarks/target/benchmarks.jar dev.sessionstore.benchmarks.sidebyside.Harness
 * }</pre>
 * Options: {@code --out <folder>} (default {@code docs}), {@code --smoke} (one short iteration of each measure, for
 * checking that everything runs; its numbers mean nothing), {@code --note <text>} (added to the page, e.g. what else
 * ran on the machine), {@code --only <names>} (the measures whose class names are listed, comma-separated, e.g.
 * {@code SingleAppend,BatchSweep}: for comparing a change on the rows it touches; write such a run elsewhere with
 * {@code --out}).
 *
 * <p>The Cassandra measures ({@code CassandraAppends}, {@code CassandraReads}: the Cassandra store against its raw
 * CQL twin) are not in the default set: they need a Cassandra node, which the harness starts itself from the
 * adapter's test fixture (about 1 GB of memory and 20 s more) unless {@link CassandraNode#CONTACT_POINT} names one.
 * Run them with {@code --only CassandraAppends,CassandraReads}. Neither is the graph-step measure against Spring AI
 * Alibaba Graph's own PostgreSQL saver; run it with {@code --only AlibabaGraphSteps}.
 */
public final class Harness {

  public static final String PAGE = "benchmarks.md";
  public static final String CHART = "benchmarks.svg";
  static final String COMMAND = "./mvnw -B -ntp -q -pl session-store-benchmarks -am package -DskipTests && "
      + "java -cp session-store-benchmarks/target/benchmarks.jar dev.sessionstore.benchmarks.sidebyside.Harness";

  private static final List<Measure> MEASURES = List.of(
      new SingleAppend(),
      new BatchSweep(),
      new WriterSweep(),
      new SharedSessionWriters(),
      new LongSessionReads(),
      new SpringChatMemory(),
      new SpringAiTurn(),
      new LangChain4jChatMemory(),
      new ForkLongSession(),
      new CrossInstanceWake(),
      new InMemoryAppend(),
      new OperationsOverhead(),
      new SqliteAppends(),
      new AppendCostByLength(),
      new VirtualThreadWaits());

  /**
   * Measures run only when {@code --only} names them: they need a Cassandra node ({@link CassandraNode}), fill a
   * million-event store twice ({@link SearchAtScale}), or fill graph threads of up to 10,000 checkpoints through two
   * savers ({@link AlibabaGraphSteps}, a few minutes).
   */
  private static final List<Measure> ON_REQUEST = List.of(
      new CassandraAppends(),
      new CassandraReads(),
      new SearchAtScale(),
      new AlibabaGraphSteps());

  private Harness() {
  }

  public static void main(String[] args) throws Exception {
    Path out = Path.of("docs");
    Scale scale = Scale.FULL;
    String note = null;
    List<Measure> measures = MEASURES;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--out" -> out = Path.of(value(args, ++i, "--out"));
        case "--smoke" -> scale = Scale.SMOKE;
        case "--note" -> note = value(args, ++i, "--note");
        case "--only" -> measures = only(value(args, ++i, "--only"));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; use --out <folder>, --smoke, --note <text>, --only <measures>");
      }
    }
    try {
      run(new Bench(StoreKind.jdbcUrl(), scale), out, note, measures);
    } finally {
      CassandraNode.closeIfUsed();
    }
  }

  /** Runs every measure on {@code bench} and writes {@value #PAGE} and {@value #CHART} into {@code out}. */
  public static void run(Bench bench, Path out, String note) throws Exception {
    run(bench, out, note, MEASURES);
  }

  private static void run(Bench bench, Path out, String note, List<Measure> measures) throws Exception {
    RunInfo run = new RunInfo(bench, note);
    Results results = new Results();
    long start = System.nanoTime();
    for (Measure measure : measures) {
      System.out.printf("[%4d s] %s%n", (System.nanoTime() - start) / 1_000_000_000, measure.name());
      measure.run(bench, results);
    }
    run.finish();
    Files.createDirectories(out);
    Chart.write(out.resolve(CHART), results.panels());
    Report.write(out.resolve(PAGE), run, results, CHART, COMMAND);
    System.out.printf("[%4d s] wrote %s and %s%n", (System.nanoTime() - start) / 1_000_000_000,
        out.resolve(PAGE), out.resolve(CHART));
  }

  /** The measures whose class names {@code names} lists, comma-separated, in the set's order. */
  private static List<Measure> only(String names) {
    List<String> wanted = List.of(names.split(","));
    List<Measure> all = new ArrayList<>(MEASURES);
    all.addAll(ON_REQUEST);
    List<Measure> measures = all.stream()
        .filter(measure -> wanted.contains(measure.getClass().getSimpleName()))
        .toList();
    if (measures.size() != wanted.size()) {
      throw new IllegalArgumentException("--only " + names + ": the measures are "
          + all.stream().map(measure -> measure.getClass().getSimpleName()).toList());
    }
    return measures;
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[index];
  }
}
