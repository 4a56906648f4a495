package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.benchmarks.StoreKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures the library side by side with its baselines (raw-JDBC twins on the same tables, Spring AI's
 * {@code JdbcChatMemoryRepository}, a {@code ConcurrentHashMap} of per-session logs) and publishes the result:
 * {@value Publication#DATA} (every row each run recorded, keyed by measure and Java), and rendered from it
 * {@value #PAGE} (the table, the numbers behind the chart, what each baseline does, the runs) and {@value #CHART}
 * (throughput against batch size and against writer count, library and raw twin); the README beside the output
 * folder quotes the Java 17 rows of the headline measures ({@link ReadmeFigures}).
 *
 * <p>The PostgreSQL is the one {@link StoreKind#URL_VARIABLE} names (default {@link StoreKind#DEFAULT_URL}); its
 * user must be allowed to create schemas. Each measure creates schemas of its own ({@value PgSchema#PREFIX}…) and
 * drops them when it ends. The published run measures on Java 17 (the oldest Java the library runs on) and on the
 * newest LTS, one child JVM per Java given to {@code --java}, one after the other, on this JVM's class path; each
 * takes a few minutes on a 2-core machine:
 * <pre>{@code
 * ./mvnw -B -ntp -q -pl session-store-benchmarks -am package -DskipTests
 * java -cp session-store-benchmarks/target/benchmarks.jar dev.sessionstore.benchmarks.sidebyside.Harness \
 *   --java /usr/lib/jvm/java-17-openjdk-amd64,/usr/lib/jvm/temurin-25-jdk-amd64
 * }</pre>
 * Options: {@code --java <home>[,<home>…]} (run the rest of the command on each of these Java installations in turn;
 * without it, on this JVM), {@code --out <folder>} (default {@code docs}), {@code --smoke} (one short iteration of
 * each measure, for checking that everything runs; its numbers mean nothing: write it elsewhere with {@code --out}),
 * {@code --note <text>} (added to the run's description, e.g. what else ran on the machine), {@code --only <names>}
 * (the measures whose class names are listed, comma-separated, e.g. {@code SingleAppend,BatchSweep}).
 *
 * <p>Every run, of the whole set or of some measures, replaces in {@value Publication#DATA} the rows and panels of
 * the measures it ran on its Java and keeps every other's, then renders the page and the chart again from all of
 * them: so an {@code --only} run, a measure on request or another module's measures update their rows in the one
 * page. A module with measures of its own calls {@link #run(Class, String[], List, List)} from its main with its
 * list, and takes the same options.
 *
 * <p>The Cassandra measures ({@code CassandraAppends}, {@code CassandraReads}: the Cassandra store against its raw
 * CQL twin), {@code SearchAtScale} and {@code AlibabaGraphSteps} are not in the default set: the Cassandra ones
 * need a Cassandra node, which the harness starts itself from the adapter's test fixture (about 1 GB of memory and
 * 20 s more) unless {@link CassandraNode#CONTACT_POINT} names one; {@code SearchAtScale} fills a million-event store
 * twice; {@code AlibabaGraphSteps} (our saver against Spring AI Alibaba Graph's own PostgreSQL saver) fills graph
 * threads of up to 10,000 checkpoints through both. Run them with {@code --only <names>}.
 */
public final class Harness {

  public static final String PAGE = "benchmarks.md";
  public static final String CHART = "benchmarks.svg";
  static final String COMMAND = "./mvnw -B -ntp -q -pl session-store-benchmarks -am package -DskipTests && "
      + "java -cp session-store-benchmarks/target/benchmarks.jar dev.sessionstore.benchmarks.sidebyside.Harness"
      + " --java /usr/lib/jvm/java-17-openjdk-amd64,/usr/lib/jvm/temurin-25-jdk-amd64";

  /**
   * The default set. Built on demand, not when the class loads: another set's entry point ({@link #run(Class,
   * String[], List, List)}) loads none of these classes, nor the libraries they compare with.
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
        new SearchIndexOverhead(),
        new AppendCostByLength(),
        new VirtualThreadWaits());
  }

  /**
   * Measures run only when {@code --only} names them: they need a Cassandra node ({@link CassandraNode}), fill a
   * million-event store twice ({@link SearchAtScale}), or fill graph threads of up to 10,000 checkpoints through two
   * savers ({@link AlibabaGraphSteps}, a few minutes).
   */
  private static List<Measure> onRequest() {
    return List.of(
        new CassandraAppends(),
        new CassandraReads(),
        new SearchAtScale(),
        new AlibabaGraphSteps());
  }

  private Harness() {
  }

  public static void main(String[] args) throws Exception {
    run(Harness.class, args, measures(), onRequest());
  }

  /**
   * Runs {@code measures} (or those of them and of {@code onRequest} that {@code --only} names) as the options in
   * {@code args} say, and publishes their rows beside every other recorded row: the entry point of a main with
   * measures of its own. With {@code --java}, runs {@code main} with the other options in a child JVM per Java home,
   * one after the other, on this JVM's class path, and fails if one fails.
   *
   * @param main      the class whose {@code main} calls this, which {@code --java} runs in each child JVM
   * @param args      the options, as {@link Harness} describes them
   * @param measures  the measures a run without {@code --only} runs, in order
   * @param onRequest measures run only when {@code --only} names them
   * @throws IllegalArgumentException if an option is unknown or lacks its value, or {@code --only} names a measure
   *                                  that is in neither list
   */
  public static void run(Class<?> main, String[] args, List<Measure> measures, List<Measure> onRequest)
      throws Exception {
    Path out = Path.of("docs");
    Scale scale = Scale.FULL;
    String note = null;
    List<Measure> chosen = measures;
    List<String> javaHomes = List.of();
    List<String> childArgs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      int option = i;
      switch (args[i]) {
        case "--out" -> out = Path.of(value(args, ++i, "--out"));
        case "--smoke" -> scale = Scale.SMOKE;
        case "--note" -> note = value(args, ++i, "--note");
        case "--only" -> chosen = only(value(args, ++i, "--only"), measures, onRequest);
        case "--java" -> javaHomes = List.of(value(args, ++i, "--java").split(","));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; use --java <homes>, --out <folder>, --smoke, --note <text>, --only <measures>");
      }
      if (!args[option].equals("--java")) {
        childArgs.addAll(List.of(args).subList(option, i + 1));
      }
    }
    if (!javaHomes.isEmpty()) {
      for (String home : javaHomes) {
        runOn(home, main, childArgs);
      }
      return;
    }
    try {
      run(new Bench(StoreKind.jdbcUrl(), scale), out, note, chosen);
    } finally {
      CassandraNode.closeIfUsed();
    }
  }

  /** Runs every measure of the set on {@code bench} and publishes their rows in {@code out}. */
  public static void run(Bench bench, Path out, String note) throws Exception {
    run(bench, out, note, measures());
  }

  /** Runs {@code measures} on {@code bench} and publishes their rows in {@code out}, beside the rows recorded there. */
  static void run(Bench bench, Path out, String note, List<Measure> measures) throws Exception {
    RunInfo run = new RunInfo(bench, note);
    Map<String, Results> results = new LinkedHashMap<>();
    long start = System.nanoTime();
    for (Measure measure : measures) {
      System.out.printf("[%4d s] %s (Java %d)%n", (System.nanoTime() - start) / 1_000_000_000, measure.name(),
          RunInfo.java());
      Results measured = new Results();
      measure.run(bench, measured);
      results.put(measure.getClass().getSimpleName(), measured);
    }
    run.finish();
    Files.createDirectories(out);
    Publication publication = Publication.read(out).with(run.record(), results);
    publication.write(out);
    Chart.write(out.resolve(CHART), Report.panels(publication));
    Report.write(out.resolve(PAGE), publication, CHART, COMMAND);
    Path readme = out.toAbsolutePath().resolveSibling("README.md");
    if (ReadmeFigures.write(readme, publication)) {
      System.out.printf("[%4d s] quoted the Java %d figures in %s%n", (System.nanoTime() - start) / 1_000_000_000,
          ReadmeFigures.JAVA, readme);
    }
    System.out.printf("[%4d s] wrote %s, %s and %s%n", (System.nanoTime() - start) / 1_000_000_000,
        out.resolve(Publication.DATA), out.resolve(PAGE), out.resolve(CHART));
  }

  /** Runs {@code main} with {@code args} in a JVM of the Java installed at {@code home}, on this class path. */
  private static void runOn(String home, Class<?> main, List<String> args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(home, "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), main.getName()));
    command.addAll(args);
    System.out.println("running on " + home + ": " + String.join(" ", command.subList(3, command.size())));
    int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("the run on " + home + " failed with exit code " + exit);
    }
  }

  /** The measures whose class names {@code names} lists, comma-separated, in the lists' order. */
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
