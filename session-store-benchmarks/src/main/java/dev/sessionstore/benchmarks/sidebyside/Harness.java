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
 * Run them with {@code --only CassandraAppends,CassandraReads}.
 */
public final class Harness {

  public static final String PAGE = "benchmarks.md";
  public static final String CHART = "benchmarks.svg";
  static final String COMMAND = "./mvnw -B -ntp -q -pl session-store-benchmarks -am package -DskipTests && "
      + "java -cp session-store-benchmarks/target/benchmarks.jar dev.sessionstore.benchmarks.sidebyside.Harness";

  /**
   * The default set. Built on demand, not when the class loads: another set's entry point ({@link #main(String[],
   * List, List, String)}) loads none of these classes, nor the libraries they compare with.
   */
  private static List<Measure> measures() {
    return List.of(
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
  }

  /**
   * Measures run only when {@code --only} names them: they need a Cassandra node ({@link CassandraNode}), or fill a
   * million-event store twice ({@link SearchAtScale}).
   */
  private static List<Measure> onRequest() {
    return List.of(
        new CassandraAppends(),
        new CassandraReads(),
        new SearchAtScale());
  }

  private Harness() {
  }

  public static void main(String[] args) throws Exception {
    try {
      main(args, measures(), onRequest(), COMMAND);
    } finally {
      CassandraNode.closeIfUsed();
    }
  }

  /**
   * Runs {@code measures} with the options {@link #main(String[])} takes ({@code --only} chooses among
   * {@code measures} and {@code onRequest}) and writes the page, naming {@code command} as the way to rerun it: the
   * entry point of a measure set on a class path of its own (another Spring AI line, say).
   */
  static void main(String[] args, List<Measure> measures, List<Measure> onRequest, String command)
      throws Exception {
    Path out = Path.of("docs");
    Scale scale = Scale.FULL;
    String note = null;
    List<Measure> chosen = measures;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--out" -> out = Path.of(value(args, ++i, "--out"));
        case "--smoke" -> scale = Scale.SMOKE;
        case "--note" -> note = value(args, ++i, "--note");
        case "--only" -> chosen = only(value(args, ++i, "--only"), measures, onRequest);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; use --out <folder>, --smoke, --note <text>, --only <measures>");
      }
    }
    run(new Bench(StoreKind.jdbcUrl(), scale), out, note, chosen, command);
  }

  /** Runs every measure on {@code bench} and writes {@value #PAGE} and {@value #CHART} into {@code out}. */
  public static void run(Bench bench, Path out, String note) throws Exception {
    run(bench, out, note, measures(), COMMAND);
  }

  /** Runs {@code measures} on {@code bench} and writes the page, naming {@code command} as the rerun, and the chart. */
  static void run(Bench bench, Path out, String note, List<Measure> measures, String command) throws Exception {
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
    Report.write(out.resolve(PAGE), run, results, CHART, command);
    System.out.printf("[%4d s] wrote %s and %s%n", (System.nanoTime() - start) / 1_000_000_000,
        out.resolve(PAGE), out.resolve(CHART));
  }

  /** The measures whose class names {@code names} lists, comma-separated, in the set's order. */
  private static List<Measure> only(String names, List<Measure> measures, List<Measure> onRequest) {
    List<String> wanted = List.of(names.split(","));
    List<Measure> all = new ArrayList<>(measures);
    all.addAll(onRequest);
    List<Measure> chosen = all.stream()
        .filter(measure -> wanted.contains(measure.getClass().getSimpleName()))
        .toList();
    if (chosen.size() != wanted.size()) {
      throw new IllegalArgumentException("--only " + names + ": the measures are "
          + all.stream().map(measure -> measure.getClass().getSimpleName()).toList());
    }
    return chosen;
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[index];
  }
}
