package dev.sessionstore.cli;

import dev.sessionstore.Event;
import java.util.List;

/**
 * Prints events as they come: with {@code --json} one JSON object per line (payloads as JSON values), else aligned
 * columns under one header, each cell on one line and the payload cut to {@link Table#MAX_CELL_WIDTH}. The id, type,
 * agent and run columns are as wide as the widest cell of the first page printed under the header (a UUID id keeps
 * its 36 characters); a later row, while following, with a wider cell prints it whole. Ids are never cut. Not
 * thread-safe.
 */
final class EventLines {

  private static final String[] HEADER = {"SEQ", "TIME", "ID", "TYPE", "AGENT", "RUN", "PAYLOAD"};
  /** The seq column's width (right-aligned) and the time column's: an instant with microseconds. */
  private static final int SEQ_WIDTH = 6;
  private static final int TIME_WIDTH = 27;

  private final Output output;
  private int[] widths;

  EventLines(Output output) {
    this.output = output;
  }

  /** Prints {@code events}, after the header if none was printed yet. */
  void print(List<Event> events) {
    if (output.json()) {
      events.forEach(event -> output.json(Records.event(event, Documents.VALUES)));
      return;
    }
    List<String[]> rows = events.stream().map(EventLines::cells).toList();
    header(rows);
    rows.forEach(this::printRow);
    output.stream().flush();
  }

  /** Says that nothing matched: {@value Table#NONE} under the header (nothing with {@code --json}). */
  void none() {
    if (!output.json()) {
      header(List.of());
      output.line(Table.NONE);
    }
  }

  /** The next {@link #print} starts with the header again, fitted to its page: a new history begins. */
  void startOver() {
    widths = null;
  }

  private static String[] cells(Event event) {
    return new String[] {
        Long.toString(event.seq()), event.timestamp().toString(), event.id(), event.type(),
        Table.oneLine(event.agentId(), Integer.MAX_VALUE), Table.oneLine(event.runId(), Integer.MAX_VALUE),
        Table.oneLine(event.payload(), Table.MAX_CELL_WIDTH)};
  }

  private void header(List<String[]> page) {
    if (widths != null) {
      return;
    }
    widths = new int[HEADER.length];
    widths[0] = SEQ_WIDTH;
    widths[1] = TIME_WIDTH;
    for (int column = 2; column < HEADER.length - 1; column++) {
      widths[column] = HEADER[column].length();
      for (String[] row : page) {
        widths[column] = Math.max(widths[column], row[column].length());
      }
    }
    printRow(HEADER);
  }

  private void printRow(String[] cells) {
    StringBuilder line = new StringBuilder(String.format("%" + widths[0] + "s", cells[0]));
    for (int column = 1; column < cells.length - 1; column++) {
      line.append("  ").append(String.format("%-" + widths[column] + "s", cells[column]));
    }
    line.append("  ").append(cells[cells.length - 1]);
    output.line(line.toString().stripTrailing());
  }
}
