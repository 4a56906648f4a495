package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.spi.SearchText;
import dev.sessionstore.spi.StoredJson;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.Function;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteDataSource;

/**
 * The SQL function {@code session_store_words(payload)} that the library's SQLite triggers call to index an event's
 * words (schema version 5): the words {@link SearchText#indexText} gives, as the library registers it on each of its
 * own connections. A connection that writes event rows without it fails (no such function).
 */
final class SearchWordsFunction extends Function {

  static final String NAME = "session_store_words";

  @Override
  protected void xFunc() throws SQLException {
    result(SearchText.indexText(StoredJson.of(value_text(0))));
  }

  /** A SQLite data source whose every new connection has the function registered once. */
  static final class RegisteringDataSource extends SQLiteDataSource {

    @Override
    public SQLiteConnection getConnection(String user, String password) throws SQLException {
      SQLiteConnection connection = super.getConnection(user, password);
      Function.create(connection, NAME, new SearchWordsFunction(), 1, Function.FLAG_DETERMINISTIC);
      return connection;
    }

    @Override
    public Connection getConnection() throws SQLException {
      return getConnection(null, null);
    }
  }
}
