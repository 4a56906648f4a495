package dev.sessionstore.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A {@link StoreProcess} in a JVM of its own, on this JVM's class path: the test sends it commands and reads its
 * report lines, and may kill it with SIGKILL ({@link Process#destroyForcibly()} on Linux). Its stderr goes to this
 * JVM's stderr.
 */
final class ChildJvm implements AutoCloseable {

  private static final String END = "\u0000end";

  private final String name;
  private final Process process;
  private final Writer commands;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final Thread reader;

  private ChildJvm(String name, Process process) {
    this.name = name;
    this.process = process;
    this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    this.reader = new Thread(this::readLines, "child-" + name + "-stdout");
    reader.start();
  }

  /** Starts a store process on {@code database}'s {@code schema} and waits until its store is open. */
  static ChildJvm start(String name, Database database, String schema, StoreTuning tuning) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), StoreProcess.class.getName(), database.jdbcUrl(), schema));
    command.addAll(List.of(tuning.toArguments()));
    try {
      ChildJvm child = new ChildJvm(name, new ProcessBuilder(command)
          .redirectError(ProcessBuilder.Redirect.INHERIT).start());
      child.next(line -> line.equals("ready"), Duration.ofSeconds(60));
      return child;
    } catch (IOException e) {
      throw new UncheckedIOException("starting the " + name + " JVM failed", e);
    }
  }

  /** Sends one command line. */
  void send(String command) {
    try {
      commands.write(command + "\n");
      commands.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("the " + name + " JVM does not take commands", e);
    }
  }

  /**
   * Passes each report line to {@code consumer} until one matches {@code last}, which is returned (and passed too).
   *
   * @throws AssertionError if no line matches within {@code timeout} or the process ends first
   */
  String next(Predicate<String> last, Duration timeout) {
    return until(last, line -> { }, timeout);
  }

  /** Like {@link #next}, passing every line read on the way, the matching one included, to {@code consumer}. */
  String until(Predicate<String> last, java.util.function.Consumer<String> consumer, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (line == null || line.equals(END)) {
          throw new AssertionError("the " + name + " JVM " + (line == null ? "did not report in " + timeout
              : "ended (exit " + process.waitFor() + ")") + " before the expected line");
        }
        consumer.accept(line);
        if (last.test(line)) {
          return line;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /**
   * Kills the process with SIGKILL and returns every report line it wrote that was not read yet, through its last
   * complete one.
   */
  List<String> kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
    reader.join();
    List<String> rest = new ArrayList<>();
    lines.drainTo(rest);
    rest.remove(END);
    return rest;
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      send("exit");
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
    reader.join();
  }

  private void readLines() {
    try (BufferedReader stdout = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      // the process was killed while its output was read: what was read is all there is
    } finally {
      lines.add(END);
    }
  }
}
