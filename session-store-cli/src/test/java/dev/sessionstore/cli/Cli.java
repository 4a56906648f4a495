package dev.sessionstore.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the tool's main entry point in this JVM on captured streams, as a person at a shell would. */
final class Cli {

  /** What one command line printed and returned. */
  record Result(int exitCode, String out, String err) {
  }

  private Cli() {
  }

  static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exitCode = SessionStoreCli.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), false, args);
    return new Result(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
