package dev.sessionstore.cli;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The tool's main class in a JVM of its own, on this test's class path, as {@code ./session-store} starts it. */
final class ToolProcess {

  private ToolProcess() {
  }

  /** Starts {@code args} in {@code folder}, its standard error passed through. */
  static Process start(Path folder, String... args) throws Exception {
    return new ProcessBuilder(command(args)).directory(folder.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  /** Starts {@code args} in {@code folder}, both its outputs piped: read them with {@link #linesOf}. */
  static Process startPiped(Path folder, String... args) throws Exception {
    return new ProcessBuilder(command(args)).directory(folder.toFile()).start();
  }

  /** Runs {@code args} in {@code folder} to its end and returns what it printed and returned. */
  static Cli.Result run(Path folder, String... args) throws Exception {
    Path err = folder.resolve("stderr-" + System.nanoTime() + ".txt");
    Process process = new ProcessBuilder(command(args)).directory(folder.toFile())
        .redirectError(err.toFile()).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the tool did not end within a minute: " + List.of(args));
    }
    return new Cli.Result(process.exitValue(), out, Files.readString(err));
  }

  private static List<String> command(String... args) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        SessionStoreCli.class.getName()));
    command.addAll(List.of(args));
    return command;
  }

  /** The lines the process prints on standard output, as they come. */
  static BlockingQueue<String> linesOf(Process process) {
    return linesOf(process.getInputStream());
  }

  /** The lines the process prints on standard error, as they come; only for a process {@link #startPiped}. */
  static BlockingQueue<String> errorLinesOf(Process process) {
    return linesOf(process.getErrorStream());
  }

  private static BlockingQueue<String> linesOf(InputStream stream) {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
        in.lines().forEach(lines::add);
      } catch (Exception e) {
        lines.add("reading the process failed: " + e);
      }
    }, "tool-output");
    reader.setDaemon(true);
    reader.start();
    return lines;
  }
}
