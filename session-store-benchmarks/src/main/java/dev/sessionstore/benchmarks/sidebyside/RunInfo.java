package dev.sessionstore.benchmarks.sidebyside;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What a run was measured on and when: date, machine, Java, PostgreSQL and its durability settings, the commit, the
 * machine's load at the start and the end, and a note given by whoever ran it. Each JVM of a run on several Javas
 * ({@code --java}) is a run of its own.
 */
final class RunInfo {

  private final Instant start = Instant.now();
  private final String loadAtStart = loadAverage();
  /** Read at the start, before the run writes its own pages into the work tree. */
  private final String commit = commit();
  private final String database;
  private final String scale;
  private final String note;
  private Duration took;
  private String loadAtEnd;

  RunInfo(Bench bench, String note) {
    this.database = database(bench.jdbcUrl());
    this.scale = bench.scale().name();
    this.note = note;
  }

  /** Marks the end of the run. */
  void finish() {
    took = Duration.between(start, Instant.now());
    loadAtEnd = loadAverage();
  }

  /** The Java feature version this run measures on (17, 25). */
  static int java() {
    return Runtime.version().feature();
  }

  /** The run as the publication records it; call it after {@link #finish()}. */
  Publication.Run record() {
    String started = start.truncatedTo(ChronoUnit.SECONDS).toString();
    return new Publication.Run(started + " Java " + java(), started, java(), commit, lines());
  }

  /** The Markdown lines describing the run. */
  List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add("- **When:** " + start.truncatedTo(ChronoUnit.SECONDS) + " (UTC), " + scale + " run, "
        + (took == null ? "unfinished" : took.toSeconds() + " s") + ".");
    lines.add("- **Commit:** `" + commit + "`.");
    lines.add("- **Machine:** " + Runtime.getRuntime().availableProcessors() + " cores, "
        + memoryGigabytes() + " GB RAM, " + System.getProperty("os.name") + " " + System.getProperty("os.version")
        + ", Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ").");
    lines.add("- **Database:** " + database + ".");
    lines.add("- **Load average** (1, 5, 15 min) at the start: " + loadAtStart + "; at the end: "
        + (loadAtEnd == null ? "n/a" : loadAtEnd) + ".");
    if (note != null && !note.isBlank()) {
      lines.add("- **Note:** " + note);
    }
    return lines;
  }

  private static String database(String url) {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT version(), current_setting('fsync'),"
            + " current_setting('synchronous_commit'), current_setting('shared_buffers'), inet_server_addr()")) {
      row.next();
      String version = row.getString(1);
      String shortVersion = version.contains(" on ") ? version.substring(0, version.indexOf(" on ")) : version;
      String address = row.getString(5);
      return shortVersion + " at " + (address == null ? "a local socket" : address) + ", fsync " + row.getString(2)
          + ", synchronous_commit " + row.getString(3) + ", shared_buffers " + row.getString(4);
    } catch (SQLException e) {
      return "not described (" + e.getMessage() + ")";
    }
  }

  private static String memoryGigabytes() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return String.format(Locale.ROOT, "%.0f", os.getTotalMemorySize() / 1e9);
    }
    return "?";
  }

  private static String loadAverage() {
    Path loadavg = Path.of("/proc/loadavg");
    try {
      String[] fields = Files.readString(loadavg, StandardCharsets.US_ASCII).trim().split("\\s+");
      return fields[0] + ", " + fields[1] + ", " + fields[2];
    } catch (IOException | RuntimeException e) {
      double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      return load < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f (1 min)", load);
    }
  }

  /**
   * The checked-out commit, {@code -dirty} when the work tree has changes other than the pages a run writes (so the
   * second Java of a {@code --java} run, started after the first wrote its rows, names the same commit); "unknown"
   * outside a Git work tree.
   */
  private static String commit() {
    String head = git("rev-parse", "--short=12", "HEAD");
    if (head.isEmpty()) {
      return "unknown";
    }
    String changed = git("status", "--porcelain", "--untracked-files=no", "--", ".",
        ":(exclude)docs/" + Harness.PAGE, ":(exclude)docs/" + Publication.DATA, ":(exclude)docs/" + Harness.CHART);
    return changed.isEmpty() ? head : head + "-dirty";
  }

  /** What {@code git args} printed, trimmed; empty when it failed or did not end within 10 s. */
  private static String git(String... args) {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    try {
      Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      boolean done = git.waitFor(10, TimeUnit.SECONDS);
      return done && git.exitValue() == 0 ? out : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

}
