package dev.sessionstore.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table for people: a header row, then one line per row, columns padded to their widest cell. Cells
 * are printed on one line (runs of whitespace collapse to one space) and cut at {@link #MAX_CELL_WIDTH} with
 * {@code ...}; a {@code null} cell prints as {@code -}. A table without rows prints its header and {@value #NONE}.
 * Not thread-safe.
 */
final class Table {

  static final int MAX_CELL_WIDTH = 60;

  /** The line printed under the header of a table without rows. */
  static final String NONE = "none";

  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  Table(String... headers) {
    this.columns = headers.length;
    rows.add(headers);
  }

  Table row(Object... cells) {
    if (cells.length != columns) {
      throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length);
    }
    rows.add(Arrays.stream(cells).map(cell -> oneLine(cell, MAX_CELL_WIDTH)).toArray(String[]::new));
    return this;
  }

  /** Whether the table has rows besides its header. */
  boolean isEmpty() {
    return rows.size() == 1;
  }

  void print(PrintStream out) {
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(i == columns - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
      }
      out.println(line.toString().stripTrailing());
    }
    if (isEmpty()) {
      out.println(NONE);
    }
  }

  /** {@code value} on one line, cut at {@code width} with {@code ...}; {@code -} for {@code null}. */
  static String oneLine(Object value, int width) {
    if (value == null) {
      return "-";
    }
    String text = value.toString().replaceAll("\\s+", " ").strip();
    return text.length() <= width ? text : text.substring(0, width - 3) + "...";
  }
}
