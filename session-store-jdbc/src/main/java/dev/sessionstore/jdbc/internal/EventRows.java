package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Event;

/** How an {@link Event} is selected from and mapped out of the events table. */
final class EventRows {

  /** The columns {@link #mapper} reads, for {@code SELECT} lists. */
  static final String COLUMNS = "session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts";

  private EventRows() {
  }

  static RowMapper<Event> mapper(Dialect dialect) {
    return row -> new Event(
        row.getString("session_id"),
        row.getLong("seq"),
        row.getString("id"),
        row.getString("type"),
        row.getString("run_id"),
        row.getString("agent_id"),
        row.getString("parent_id"),
        dialect.readJson(row, "payload"),
        dialect.readInstant(row, "ts"));
  }
}
