package dev.sessionstore.benchmarks;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the benchmarks for every {@link StoreKind} and prints, per benchmark, the median time of one call on each
 * store and the PostgreSQL/in-memory ratio, as a Markdown table.
 *
 * <p>Medians, not means: sample-time benchmarks record the time of individual calls, and on a small, shared machine
 * a few calls stalled by other processes move the mean a lot and the median hardly at all.
 *
 * <p>Arguments are JMH's own (benchmark regexps, {@code -p}, {@code -f}, {@code -i}, {@code -rf json} and so on);
 * without a regexp it runs every benchmark of this package with the iterations their annotations give. Run it by
 * hand, against the PostgreSQL {@link StoreKind} names:
 * <pre>{@code
 * mvn -pl session-store-benchmarks -am package -DskipTests
 * java -cp session-store-benchmarks/target/benchmarks.jar dev.sessionstore.benchmarks.StoreMedians
 * java -cp session-store-benchmarks/target/benchmarks.jar dev.sessionstore.benchmarks.StoreMedians ReadBenchmark
 * }</pre>
 */
public final class StoreMedians {

  private static final String KIND = "kind";

  private StoreMedians() {
  }

  public static void main(String[] args) throws CommandLineOptionException, RunnerException {
    CommandLineOptions command = new CommandLineOptions(args);
    ChainedOptionsBuilder options = new OptionsBuilder().parent(command);
    if (command.getIncludes().isEmpty()) {
      options.include(StoreMedians.class.getPackageName().replace(".", "\\.") + "\\..*");
    }
    Collection<RunResult> results = new Runner(options.build()).run();
    System.out.println();
    System.out.println(header(results));
    System.out.println();
    System.out.print(table(results));
  }

  /** One line naming what the numbers were measured on. */
  static String header(Collection<RunResult> results) {
    StringBuilder header = new StringBuilder()
        .append(LocalDate.now()).append(", ")
        .append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
        .append(System.getProperty("java.version"));
    boolean postgres = results.stream()
        .anyMatch(result -> StoreKind.POSTGRESQL.name().equals(result.getParams().getParam(KIND)));
    if (postgres) {
      header.append(", PostgreSQL ").append(serverVersion());
    }
    return header.append(", medians of sampled call times").toString();
  }

  /** The Markdown table: a row per benchmark and parameters other than the store kind. */
  static String table(Collection<RunResult> results) {
    Map<String, Map<String, Double>> medians = new LinkedHashMap<>();
    Map<String, Integer> threads = new LinkedHashMap<>();
    for (RunResult result : results) {
      BenchmarkParams params = result.getParams();
      String row = row(params);
      String kind = params.getParam(KIND);
      if (kind == null) {
        continue;
      }
      double median = result.getPrimaryResult().getStatistics().getPercentile(50);
      medians.computeIfAbsent(row, key -> new LinkedHashMap<>()).put(kind, microseconds(median, params));
      threads.put(row, params.getThreads());
    }
    StringBuilder table = new StringBuilder();
    table.append("| Benchmark | Threads | In-memory p50 (µs) | PostgreSQL p50 (µs) | PostgreSQL / in-memory |\n");
    table.append("|---|--:|--:|--:|--:|\n");
    medians.forEach((row, byKind) -> {
      Double memory = byKind.get(StoreKind.IN_MEMORY.name());
      Double postgres = byKind.get(StoreKind.POSTGRESQL.name());
      table.append("| ").append(row)
          .append(" | ").append(threads.get(row))
          .append(" | ").append(memory == null ? "" : number(memory))
          .append(" | ").append(postgres == null ? "" : number(postgres))
          .append(" | ").append(memory == null || postgres == null ? "" : number(postgres / memory) + "×")
          .append(" |\n");
    });
    return table.toString();
  }

  /** {@code ReadBenchmark.readTail}, followed by any parameter but the kind: {@code (events=10000)}. */
  private static String row(BenchmarkParams params) {
    String benchmark = params.getBenchmark();
    String name = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
    List<String> others = new ArrayList<>();
    for (String key : params.getParamsKeys()) {
      if (!key.equals(KIND)) {
        others.add(key + "=" + params.getParam(key));
      }
    }
    return others.isEmpty() ? name : name + " (" + String.join(", ", others) + ")";
  }

  private static double microseconds(double value, BenchmarkParams params) {
    return value * params.getTimeUnit().toNanos(1) / TimeUnit.MICROSECONDS.toNanos(1);
  }

  /** Three significant digits or more: 0.213, 4.56, 78.9, 1,234. */
  private static String number(double value) {
    String pattern = value < 1 ? "%.3f" : value < 10 ? "%.2f" : value < 100 ? "%.1f" : "%,.0f";
    return String.format(Locale.ROOT, pattern, value);
  }

  private static String serverVersion() {
    try (Connection connection = DriverManager.getConnection(StoreKind.jdbcUrl());
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SHOW server_version")) {
      return row.next() ? row.getString(1) : "(unknown version)";
    } catch (SQLException e) {
      return "(version not read: " + e.getMessage() + ")";
    }
  }
}
