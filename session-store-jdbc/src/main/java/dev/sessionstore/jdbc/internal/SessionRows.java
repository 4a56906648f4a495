package dev.sessionstore.jdbc.internal;

import dev.sessionstore.ForkOrigin;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStatus;

/** How a {@link Session} is selected from and mapped out of the sessions table. */
final class SessionRows {

  /** The columns {@link #mapper} reads, for {@code SELECT} lists. */
  static final String COLUMNS =
      "id, name, tenant, agent_id, status, settings, metadata, fork_parent_id, fork_seq, created_at, updated_at,"
          + " expires_at, last_seq";

  private SessionRows() {
  }

  static RowMapper<Session> mapper(Dialect dialect) {
    return row -> {
      String forkParent = row.getString("fork_parent_id");
      return new Session(
          row.getString("id"),
          row.getString("name"),
          row.getString("tenant"),
          row.getString("agent_id"),
          SessionStatus.of(row.getString("status")),
          dialect.readJson(row, "settings"),
          MetadataJson.read(row.getString("metadata")),
          forkParent == null ? null : new ForkOrigin(forkParent, row.getLong("fork_seq")),
          dialect.readInstant(row, "created_at"),
          dialect.readInstant(row, "updated_at"),
          dialect.readInstant(row, "expires_at"),
          row.getLong("last_seq"));
    };
  }
}
