package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.NewEvent;
import dev.sessionstore.spi.SearchText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * The raw-JDBC twin of the library's event log on SQLite: the plainest statements that append on the same tables
 * (a file the library created), through a pool of the same settings. One transaction per append: an upsert of the
 * session row that moves {@code last_seq} by the number of events (creating the session if unknown) and returns it,
 * then the events' inserts after the old head (a JDBC batch of one prepared insert for many), then their rows of the
 * search index (the FTS5 table the library created, which since schema version 7 no trigger writes: each event's
 * words as the library computes them, {@link SearchText#indexText}, one prepared insert by the event's key, a JDBC
 * batch for many), so that both sides keep the same index. Atomic and gapless
 * (the transaction holds SQLite's write lock from the upsert on); no idempotent replay (a reused id fails with the
 * unique violation), no expected-seq check, no wake-up of waiting reads, no payload validation.
 */
final class RawSqliteLog {

  private static final String HEAD = "INSERT INTO session_store_sessions AS s"
      + " (id, status, settings, metadata, last_seq, created_at, updated_at) VALUES (?, 'active', '{}', '{}', ?, ?, ?)"
      + " ON CONFLICT (id) DO UPDATE SET last_seq = s.last_seq + excluded.last_seq RETURNING last_seq";
  private static final String INSERT = "INSERT INTO session_store_events (session_id, seq, id, type, payload, ts)"
      + " VALUES (?, ?, ?, ?, ?, ?)";
  private static final String INDEX = "INSERT INTO session_store_search (rowid, words)"
      + " SELECT rowid, ? FROM session_store_events WHERE session_id = ? AND seq = ?";

  private final DataSource pool;

  RawSqliteLog(DataSource pool) {
    this.pool = pool;
  }

  /** Appends {@code events} after the session's head in one transaction; returns the new head. */
  long appendAll(String sessionId, List<NewEvent> events) throws SQLException {
    long now = System.currentTimeMillis() * 1_000;
    try (Connection connection = pool.getConnection()) {
      connection.setAutoCommit(false);
      try {
        long head;
        try (PreparedStatement upsert = connection.prepareStatement(HEAD)) {
          upsert.setString(1, sessionId);
          upsert.setLong(2, events.size());
          upsert.setLong(3, now);
          upsert.setLong(4, now);
          try (ResultSet row = upsert.executeQuery()) {
            row.next();
            head = row.getLong(1);
          }
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
          long seq = head - events.size();
          for (NewEvent event : events) {
            insert.setString(1, sessionId);
            insert.setLong(2, ++seq);
            insert.setString(3, event.id());
            insert.setString(4, event.type());
            insert.setString(5, event.payload().text());
            insert.setLong(6, now);
            if (events.size() == 1) {
              insert.executeUpdate();
            } else {
              insert.addBatch();
            }
          }
          if (events.size() > 1) {
            insert.executeBatch();
          }
        }
        try (PreparedStatement index = connection.prepareStatement(INDEX)) {
          long seq = head - events.size();
          for (NewEvent event : events) {
            index.setString(1, SearchText.indexText(event.payload()));
            index.setString(2, sessionId);
            index.setLong(3, ++seq);
            if (events.size() == 1) {
              index.executeUpdate();
            } else {
              index.addBatch();
            }
          }
          if (events.size() > 1) {
            index.executeBatch();
          }
        }
        connection.commit();
        return head;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    }
  }
}
