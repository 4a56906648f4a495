package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Step;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A long mixed workload on one store: 6 workers append, read tails, wait, run tool calls to their resolution, fork,
 * truncate and commit agent steps, on sessions they retire (delete) at 100 events so the data stays bounded. Every
 * 10 s the heap after a GC, the JVM's threads, the pool's connections and the database's backends for the pool are
 * sampled; per operation and minute, p50 and p99 latencies are kept. The test fails on any error, and on growth by
 * {@link Trend}: heap within 1.25x + 16 MB, threads within 1.25x + 2, connections and backends within 1.25x + 2,
 * each operation's p99 within 3x + 25 ms (last third against first third). Its length is the system property
 * {@value #DURATION_PROPERTY} (ISO-8601, default 10 minutes), the Markdown report's path the system property
 * {@value #REPORT_PROPERTY}. Only the {@code soak} profile runs it. A backend runs it by extending this class with
 * its {@link #database()}.
 */
@Tag("soak")
abstract class SoakScenarios {

  static final String DURATION_PROPERTY = "soak.duration";
  static final String REPORT_PROPERTY = "soak.report";
  private static final int WORKERS = 6;
  private static final Duration SAMPLE_EVERY = Duration.ofSeconds(10);
  private static final String APPLICATION = "session-store-soak";

  /** The database the soak runs on, in a schema of its own. */
  protected abstract Database database();

  @Test
  @DisplayName("A long mixed workload shows no error, no growth of heap, threads or connections, and a stable p99")
  void soak() throws Exception {
    Duration duration = Duration.parse(System.getProperty(DURATION_PROPERTY, "PT10M"));
    System.out.println("SoakScenarios run for " + duration + " on: " + database().description());
    try (OpenStores stores = new OpenStores(database(), Database.uniqueSchema("soak"))) {
      HikariDataSource pool = stores.pool("soak", 12,
          config -> config.addDataSourceProperty("ApplicationName", APPLICATION));
      SessionStore store = stores.store(pool, StoreTuning.defaults());
      LatencyLog latencies = new LatencyLog();
      List<String> errors = Collections.synchronizedList(new ArrayList<>());
      Running running = new Running();
      ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
      List<Future<?>> work = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        work.add(workers.submit(new Worker(store, "w" + w, latencies, errors, running)));
      }
      Map<String, List<Double>> series = new LinkedHashMap<>();
      long end = System.nanoTime() + duration.toNanos();
      while (System.nanoTime() < end && errors.isEmpty()) {
        long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
        Thread.sleep(Math.max(1, Math.min(SAMPLE_EVERY.toMillis(), left)));
        sample(pool, series);
      }
      running.stop();
      for (Future<?> future : work) {
        future.get(1, TimeUnit.MINUTES);
      }
      workers.shutdown();

      List<String> growing = new ArrayList<>();
      check(series, "heap MB", 1.25, 16, growing);
      check(series, "threads", 1.25, 2, growing);
      check(series, "pool connections", 1.25, 2, growing);
      check(series, "backends", 1.25, 2, growing);
      for (String operation : latencies.operations()) {
        List<Double> p99s = latencies.perMinute(operation).values().stream().map(LatencyLog.Percentiles::p99)
            .toList();
        if (Trend.grows(p99s, 3, 25)) {
          growing.add(operation + " p99 ms: " + Trend.describe(p99s));
        }
      }
      Path report = writeReport(duration, series, latencies, errors, growing);
      System.out.println("SoakScenarios: report in " + report.toAbsolutePath() + "\n" + Files.readString(report));
      assertThat(errors).as("errors").isEmpty();
      assertThat(growing).as("growing series").isEmpty();
    }
  }

  private void sample(HikariDataSource pool, Map<String, List<Double>> series) throws SQLException {
    System.gc();
    series.computeIfAbsent("heap MB", key -> new ArrayList<>()).add(
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1_048_576.0);
    series.computeIfAbsent("threads", key -> new ArrayList<>()).add(
        (double) ManagementFactory.getThreadMXBean().getThreadCount());
    series.computeIfAbsent("pool active", key -> new ArrayList<>()).add(
        (double) pool.getHikariPoolMXBean().getActiveConnections());
    series.computeIfAbsent("pool idle", key -> new ArrayList<>()).add(
        (double) pool.getHikariPoolMXBean().getIdleConnections());
    series.computeIfAbsent("pool connections", key -> new ArrayList<>()).add(
        (double) pool.getHikariPoolMXBean().getTotalConnections());
    try (Connection connection = database().adminConnection();
         PreparedStatement statement = connection.prepareStatement(
             "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
      statement.setString(1, APPLICATION);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        series.computeIfAbsent("backends", key -> new ArrayList<>()).add((double) rows.getInt(1));
      }
    }
  }

  private static void check(Map<String, List<Double>> series, String name, double factor, double slack,
      List<String> growing) {
    if (Trend.grows(series.get(name), factor, slack)) {
      growing.add(name + ": " + Trend.describe(series.get(name)));
    }
  }

  private static Path writeReport(Duration duration, Map<String, List<Double>> series, LatencyLog latencies,
      List<String> errors, List<String> growing) throws IOException {
    StringBuilder report = new StringBuilder("# Soak report\n\n")
        .append("Duration ").append(duration).append(", ").append(WORKERS).append(" workers, samples every ")
        .append(SAMPLE_EVERY.toSeconds()).append(" s. Errors: ").append(errors.size())
        .append(errors.isEmpty() ? "" : " (first: " + errors.get(0) + ")").append(". Growing series: ")
        .append(growing.isEmpty() ? "none" : String.join("; ", growing)).append(".\n\n")
        .append("| series | min | max | first third → last third (medians) |\n|---|---|---|---|\n");
    series.forEach((name, values) -> report.append(String.format("| %s | %.1f | %.1f | %s |%n", name,
        Collections.min(values), Collections.max(values), Trend.describe(values))));
    report.append("\n| operation | minute | count | p50 ms | p99 ms |\n|---|---|---|---|---|\n");
    for (String operation : latencies.operations()) {
      latencies.perMinute(operation).forEach((minute, percentiles) -> report.append(String.format(
          "| %s | %d | %d | %.2f | %.2f |%n", operation, minute + 1, percentiles.count(), percentiles.p50(),
          percentiles.p99())));
    }
    Path path = Path.of(System.getProperty(REPORT_PROPERTY, "target/soak-report.md"));
    Files.createDirectories(path.getParent());
    Files.writeString(path, report);
    return path;
  }

  /** One worker: a random mix of operations on sessions of its own, each timed. */
  private static final class Worker implements Runnable {

    private final SessionStore store;
    private final String name;
    private final LatencyLog latencies;
    private final List<String> errors;
    private final Running running;
    private long generation;
    private long counter;

    Worker(SessionStore store, String name, LatencyLog latencies, List<String> errors, Running running) {
      this.store = store;
      this.name = name;
      this.latencies = latencies;
      this.errors = errors;
      this.running = running;
    }

    @Override
    public void run() {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      while (running.getAsBoolean()) {
        String session = name + "-g" + generation + "-s" + random.nextInt(5);
        try {
          switch (random.nextInt(10)) {
            case 0, 1, 2 -> timed("append", () -> store.events().appendAll(session, batch(1 + random.nextInt(5))));
            case 3, 4 -> timed("read tail", () -> store.events().read(session, EventQuery.all().last(20)));
            case 5 -> timed("await", () -> store.events().await(session,
                EventQuery.all().after(store.events().lastSeq(session)), Duration.ofMillis(20)));
            case 6 -> toolCall(session);
            case 7 -> timed("step commit", () -> store.commit(Step.builder(session)
                .run(RunWrite.of("run-" + counter, session).withStatus(RunStatus.RUNNING))
                .events(batch(2)).putCheckpoint("turn-state", new byte[64]).build()));
            case 8 -> forkAndDrop(session);
            default -> truncateOrRetire(session);
          }
        } catch (RuntimeException e) {
          errors.add(name + ": " + e);
          return;
        }
      }
    }

    private void toolCall(String session) {
      String call = "call-" + counter++;
      timed("tool call", () -> {
        store.toolCalls().save(ToolCallWrite.of(call, session, "approve"));
        store.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, Json.of("{\"ok\":true}"));
        return store.toolCalls().await(session, call, Duration.ofSeconds(5)).orElseThrow();
      });
    }

    private void forkAndDrop(String session) {
      long last = store.events().lastSeq(session);
      if (last > 0) {
        String fork = timed("fork", () -> store.sessions().fork(session, last).id());
        store.sessions().delete(fork);
      }
    }

    private void truncateOrRetire(String session) {
      long last = store.events().lastSeq(session);
      if (last > 100) {
        timed("delete", () -> store.sessions().delete(session));
        generation++;
      } else if (last > 10) {
        timed("truncate", () -> store.events().truncate(session, last - 5));
      }
    }

    private List<NewEvent> batch(int size) {
      List<NewEvent> batch = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        batch.add(NewEvent.of("message", Json.from(Map.of("text", "soak message " + counter)))
            .withId(name + "-" + counter++));
      }
      return batch;
    }

    private <T> T timed(String operation, Supplier<T> call) {
      long started = System.nanoTime();
      T result = call.get();
      latencies.record(operation, System.nanoTime() - started);
      return result;
    }
  }
}
