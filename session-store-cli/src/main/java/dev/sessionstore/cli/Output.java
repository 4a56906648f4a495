package dev.sessionstore.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;

/**
 * Where a command prints its results: tables and labelled lines for people, or JSON for scripts when
 * {@code --json} is given. JSON is written compactly, one document per line.
 */
final class Output {

  private final PrintStream out;
  private final boolean json;

  Output(PrintStream out, boolean json) {
    this.out = out;
    this.json = json;
  }

  /** Whether the user asked for JSON. */
  boolean json() {
    return json;
  }

  /** Prints one JSON document on one line. */
  void json(JsonNode document) {
    try {
      out.println(Records.MAPPER.writeValueAsString(document));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree cannot be written", e);
    }
    out.flush();
  }

  void table(Table table) {
    table.print(out);
    out.flush();
  }

  /** One aligned {@code label  value} line. */
  void field(String label, Object value) {
    out.printf("%-18s %s%n", label + ":", value == null ? "-" : value);
  }

  /** The underlying stream, for printers that write it themselves. */
  PrintStream stream() {
    return out;
  }

  void line(String text) {
    out.println(text);
  }
}
