package dev.sessionstore.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A short text per session that changes with every commit a waiting read of the session must see: an append or a cut
 * (the last seq, and the id and time of the last event of its own rows, which a cut followed by as many appends
 * changes), a tool call resolved or expired (how many are no longer pending), the session deleted (no row) or
 * created again (its creation time). Read for many sessions in one query over the sessions' keys, so that a
 * {@link SqliteChangeListener} wakes only the waiting reads of the sessions a commit changed.
 */
final class SessionFingerprints {

  /** The fingerprint of a session that does not exist. */
  static final String ABSENT = "absent";

  /** Sessions read per statement at most: one bound list each. */
  private static final int CHUNK = 500;

  private final Dialect dialect;
  private final String query;

  SessionFingerprints(Dialect dialect, Tables tables) {
    this.dialect = dialect;
    this.query = "SELECT s.id, s.created_at, s.last_seq,"
        + " (SELECT count(*) FROM " + tables.toolCalls() + " c WHERE c.session_id = s.id AND c.status <> 'pending'),"
        + " (SELECT e.id || '@' || e.ts FROM " + tables.events() + " e WHERE e.session_id = s.id"
        + " AND e.seq = s.last_seq)"
        + " FROM " + tables.sessions() + " s WHERE " + dialect.isAnyOf("s.id");
  }

  /** The fingerprints of those of {@code sessionIds} that exist, by id; auto-committed reads on {@code connection}. */
  Map<String, String> read(Connection connection, Set<String> sessionIds) throws SQLException {
    Map<String, String> fingerprints = new HashMap<>();
    List<String> ids = new ArrayList<>(sessionIds);
    for (int from = 0; from < ids.size(); from += CHUNK) {
      List<String> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
      try (PreparedStatement statement = connection.prepareStatement(query)) {
        statement.setObject(1, dialect.textList(connection, chunk));
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            fingerprints.put(rows.getString(1), rows.getString(2) + "/" + rows.getLong(3) + "/" + rows.getLong(4)
                + "/" + rows.getString(5));
          }
        }
      }
    }
    return fingerprints;
  }
}
