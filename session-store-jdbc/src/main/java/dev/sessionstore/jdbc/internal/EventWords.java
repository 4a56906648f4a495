package dev.sessionstore.jdbc.internal;

import dev.sessionstore.spi.SearchText;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Gives the events stored before the search index (schema version 5) their words, where the database keeps them in
 * a column of the events table ({@link Dialect#wordsColumn()}): the words are the library's
 * ({@link SearchText#indexText}), so no statement of a script can make them. A store runs it once it has migrated or
 * checked its schema, so that a schema migrated by hand is indexed too; every later write of an event writes its
 * words, so afterwards it finds nothing to do, through a partial index of the rows without words, which stays empty.
 * Where the store writes a search table instead (SQLite, {@link SearchRows}), version 5's script indexes
 * them.
 *
 * <p>Reads the rows without words in key order, {@value #CHUNK} at a time from where the last chunk ended, and
 * writes each chunk's words in one JDBC batch: one pass over the events without words, whatever their number.
 */
final class EventWords {

  /** Rows read and written per statement. */
  static final int CHUNK = 1_000;

  private final Dialect dialect;
  private final Optional<String> column;
  private final String unindexed;
  private final String index;

  EventWords(Dialect dialect, Tables tables) {
    this.dialect = dialect;
    this.column = dialect.wordsColumn();
    String words = column.orElse("");
    this.unindexed = "SELECT session_id, seq, payload FROM " + tables.events() + " WHERE " + words + " IS NULL"
        + " AND (session_id > ? OR session_id = ? AND seq > ?) ORDER BY session_id, seq LIMIT " + CHUNK;
    this.index = "UPDATE " + tables.events() + " SET " + words + " = " + (column.isPresent()
        ? dialect.indexedWords("?") : "") + " WHERE session_id = ? AND seq = ?";
  }

  /** Writes the words of every event row that has none, in {@code connection}'s transaction. */
  void indexUnindexed(Connection connection) throws SQLException {
    if (column.isEmpty()) {
      return;
    }
    Sql sql = new Sql(dialect);
    String afterSession = "";
    long afterSeq = 0;
    while (true) {
      List<Object[]> rows = sql.list(connection, unindexed, SearchRows.wordsOfRow(dialect), afterSession,
          afterSession, afterSeq);
      if (rows.isEmpty()) {
        return;
      }
      sql.updateEach(connection, index, new ArrayList<>(rows));
      Object[] last = rows.get(rows.size() - 1);
      afterSession = (String) last[1];
      afterSeq = (Long) last[2];
    }
  }
}
