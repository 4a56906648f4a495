package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.spi.SearchText;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes the rows of the search table ({@link Tables#search()}, keyed by the events table's rowid) where the store
 * keeps that index itself ({@link Dialect#indexStoredEvents}: SQLite's FTS5 table, schema version 7), in the
 * transaction that writes the event rows, with the words the library computes from the payloads it holds
 * ({@link SearchText#indexText}), so that no statement calls back into Java. Where the database keeps the words in a
 * column of the events table ({@link Dialect#wordsColumn()}), every method does nothing. Rows deleted from the events
 * table leave the index by the schema's delete trigger, which calls no function.
 */
final class SearchRows {

  private final Dialect dialect;
  private final Sql sql;
  /** Indexes a batch of events stored with consecutive seqs, in one statement; empty where the store keeps none. */
  private final Optional<String> indexStored;
  /** Indexes one stored event row by its session id and seq. */
  private final String indexRow;
  /** Removes the index row of one stored event row by its session id and seq. */
  private final String unindexRow;

  SearchRows(Dialect dialect, Tables tables) {
    this.dialect = dialect;
    this.sql = new Sql(dialect);
    this.indexStored = dialect.indexStoredEvents(tables);
    this.indexRow = "INSERT INTO " + tables.search() + " (rowid, words) SELECT rowid, ? FROM " + tables.events()
        + " WHERE session_id = ? AND seq = ?";
    this.unindexRow = "DELETE FROM " + tables.search() + " WHERE rowid = (SELECT rowid FROM " + tables.events()
        + " WHERE session_id = ? AND seq = ?)";
  }

  /** Whether the store writes the index rows itself: otherwise every method does nothing. */
  boolean writesRows() {
    return indexStored.isPresent();
  }

  /**
   * Indexes {@code events}, just stored in this transaction in {@code sessionId} with seqs {@code lastSeq + 1} on,
   * in one statement whatever their number.
   */
  void indexStored(Connection connection, String sessionId, long lastSeq, List<NewEvent> events)
      throws SQLException {
    if (indexStored.isEmpty()) {
      return;
    }
    List<String> words = new ArrayList<>(events.size());
    for (NewEvent event : events) {
      words.add(SearchText.indexText(event.payload()));
    }
    sql.update(connection, indexStored.get(), dialect.textList(connection, words), sessionId, lastSeq + 1);
  }

  /**
   * Indexes again the stored event {@code seq} of {@code sessionId}, whose payload this transaction has just
   * rewritten to {@code payload} (its rowid unchanged).
   */
  void reindex(Connection connection, String sessionId, long seq, Json payload) throws SQLException {
    if (indexStored.isEmpty()) {
      return;
    }
    sql.update(connection, unindexRow, sessionId, seq);
    sql.update(connection, indexRow, SearchText.indexText(payload), sessionId, seq);
  }

  /**
   * The rows {@code query} returns (columns {@code session_id}, {@code seq}, {@code payload}: rows about to be
   * stored, such as the copies {@link Dependents#keepWhole} makes), each as its words, session id and seq, for
   * {@link #indexRows} once they are stored; empty, without running the query, where the store writes no index rows.
   */
  List<Object[]> toIndex(Connection connection, String query, Object... parameters) throws SQLException {
    if (indexStored.isEmpty()) {
      return List.of();
    }
    return sql.list(connection, query, wordsOfRow(dialect), parameters);
  }

  /**
   * Maps a row of columns {@code session_id}, {@code seq} and {@code payload} to the parameters of a statement that
   * writes its words by its key: the words ({@link SearchText#indexText}), the session id, the seq.
   */
  static RowMapper<Object[]> wordsOfRow(Dialect dialect) {
    return row -> new Object[] {
        SearchText.indexText(dialect.readJson(row, "payload")), row.getString("session_id"), row.getLong("seq")};
  }

  /** Indexes the rows {@link #toIndex} read, now stored, in one JDBC batch. */
  void indexRows(Connection connection, List<Object[]> rows) throws SQLException {
    if (!rows.isEmpty()) {
      sql.updateEach(connection, indexRow, rows);
    }
  }
}
