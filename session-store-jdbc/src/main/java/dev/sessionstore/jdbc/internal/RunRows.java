package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a {@link Run} is stored in, selected from and mapped out of the runs table. */
final class RunRows {

  /** The columns {@link #mapper} reads, for {@code SELECT} lists. */
  static final String COLUMNS = "id, session_id, status, usage, error, created_at, updated_at";

  /**
   * The stored statuses of an active run ({@link RunStatus#isActive}), as an SQL list: {@code ('running', 'waiting')},
   * the predicate of the schema's active-run index.
   */
  static final String ACTIVE_STATUSES = Arrays.stream(RunStatus.values()).filter(RunStatus::isActive)
      .map(status -> "'" + column(status) + "'").collect(Collectors.joining(", ", "(", ")"));

  private RunRows() {
  }

  static RowMapper<Run> mapper(Dialect dialect) {
    return row -> new Run(
        row.getString("id"),
        row.getString("session_id"),
        status(row.getString("status")),
        dialect.readJson(row, "usage"),
        dialect.readJson(row, "error"),
        dialect.readInstant(row, "created_at"),
        dialect.readInstant(row, "updated_at"));
  }

  /** The stored form of a status: its lower-case name. */
  static String column(RunStatus status) {
    return status.name().toLowerCase(Locale.ROOT);
  }

  private static RunStatus status(String column) {
    return RunStatus.valueOf(column.toUpperCase(Locale.ROOT));
  }
}
