package dev.sessionstore.jdbc.internal;

import dev.sessionstore.StoreFailureException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Whether a SQLite file can hold a store, read on the first connection a build makes, before a pool is opened or a
 * migration runs: a file that is not a SQLite database, one that is corrupt or truncated, and one that cannot be
 * opened beside its {@code -wal} and {@code -shm} files (read-only media, a read-only folder) fail the build at once,
 * not retryable, with one message that names what is wrong. SQLite opens a file lazily, so a connection alone proves
 * nothing; reading the schema table reads the header and the schema's pages.
 */
final class SqliteFile {

  private SqliteFile() {
  }

  /**
   * Reads the schema table of {@code connection}'s file.
   *
   * @throws StoreFailureException not retryable, naming the file and what is wrong with it, if the file is not a
   *                               database, is corrupt or truncated, or cannot be opened
   * @throws SQLException          for any other failure, for the caller to classify (a busy file, a lost connection)
   */
  static void check(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet schema = statement.executeQuery("SELECT count(*) FROM sqlite_master")) {
      schema.next();
    } catch (SQLiteException e) {
      String problem = problem(e.getResultCode());
      if (problem == null) {
        throw e;
      }
      throw new StoreFailureException("cannot use the SQLite file " + file(connection) + ": "
          + problem + " (" + e.getMessage() + "; not retryable: fix or replace the file first)", false, e);
    }
  }

  private static String problem(SQLiteErrorCode code) {
    int primary = code.code & 0xff;
    if (primary == SQLiteErrorCode.SQLITE_NOTADB.code) {
      return "it is not a SQLite database";
    }
    if (primary == SQLiteErrorCode.SQLITE_CORRUPT.code) {
      return "it is corrupt or truncated";
    }
    if (primary == SQLiteErrorCode.SQLITE_CANTOPEN.code || primary == SQLiteErrorCode.SQLITE_READONLY.code) {
      return "it cannot be opened for writing: it, or its folder, where SQLite keeps the -wal and -shm files, is"
          + " read-only";
    }
    return null;
  }

  private static String file(Connection connection) throws SQLException {
    String url = connection.getMetaData().getURL();
    return url == null ? "(unnamed)" : url.replaceFirst("^jdbc:sqlite:", "").replaceFirst("\\?.*$", "");
  }
}
