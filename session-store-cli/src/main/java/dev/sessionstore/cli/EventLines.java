package dev.sessionstore.cli;

import dev.sessionstore.Event;
import java.util.List;

/**
 * Prints events as they come: with {@code --json} one JSON object per line (payloads as JSON values), else aligned
 * columns under one header, each cell on one line and the payload cut to {@link Table#MAX_CELL_WIDTH}. Not
 * thread-safe.
 */
final class EventLines {

  private static final String ROW = "%6s  %-27s  %-16s  %-18s  %-10s  %-8s  %s%n";

  private final Output output;
  private boolean headerPrinted;

  EventLines(Output output) {
    this.output = output;
  }

  /** Prints {@code events}, after the header if none was printed yet. */
  void print(List<Event> events) {
    if (output.json()) {
      events.forEach(event -> output.json(Records.event(event, Documents.VALUES)));
      return;
    }
    header();
    for (Event event : events) {
      output.stream().printf(ROW, event.seq(), event.timestamp(), event.id(), event.type(),
          Table.oneLine(event.agentId(), Integer.MAX_VALUE), Table.oneLine(event.runId(), Integer.MAX_VALUE),
          Table.oneLine(event.payload(), Table.MAX_CELL_WIDTH));
    }
    output.stream().flush();
  }

  /** Says that nothing matched: {@value Table#NONE} under the header (nothing with {@code --json}). */
  void none() {
    if (!output.json()) {
      header();
      output.line(Table.NONE);
    }
  }

  /** The next {@link #print} starts with the header again: a new history begins. */
  void startOver() {
    headerPrinted = false;
  }

  private void header() {
    if (!headerPrinted) {
      output.stream().printf(ROW, "SEQ", "TIME", "ID", "TYPE", "AGENT", "RUN", "PAYLOAD");
      headerPrinted = true;
    }
  }
}
