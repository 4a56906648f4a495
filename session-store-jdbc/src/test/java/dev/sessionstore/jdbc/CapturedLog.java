package dev.sessionstore.jdbc;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the store logs while a test runs: slf4j-simple, the tests' binding, writes every line to the current
 * {@code System.err}, which this tees into a buffer until closed.
 */
final class CapturedLog implements AutoCloseable {

  private final PrintStream original = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  CapturedLog() {
    OutputStream tee = new OutputStream() {
      @Override
      public void write(int b) {
        synchronized (captured) {
          captured.write(b);
        }
        original.write(b);
      }

      @Override
      public void write(byte[] bytes, int offset, int length) {
        synchronized (captured) {
          captured.write(bytes, offset, length);
        }
        original.write(bytes, offset, length);
      }
    };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  /** The lines logged so far that contain {@code text}. */
  List<String> lines(String text) {
    String all;
    synchronized (captured) {
      all = captured.toString(StandardCharsets.UTF_8);
    }
    return all.lines().filter(line -> line.contains(text)).toList();
  }

  /** Whether a stack trace follows a line logged so far that contains {@code text}: a frame within two lines. */
  boolean stackTraceAfter(String text) {
    String all;
    synchronized (captured) {
      all = captured.toString(StandardCharsets.UTF_8);
    }
    List<String> lines = all.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        for (int next = i + 1; next <= i + 2 && next < lines.size(); next++) {
          if (lines.get(next).startsWith("\tat ")) {
            return true;
          }
        }
      }
    }
    return false;
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
