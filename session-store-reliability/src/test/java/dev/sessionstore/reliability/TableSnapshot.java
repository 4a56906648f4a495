package dev.sessionstore.reliability;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every row of every table of one store's namespace ({@link Stores#open}: a schema on PostgreSQL, a table prefix in a
 * SQLite file), rendered as text and sorted per table: two snapshots are equal exactly when the store's data is
 * byte-identical. Uses only JDBC metadata, so it reads any backend.
 */
final class TableSnapshot {

  private TableSnapshot() {
  }

  /** The text of every row of every table of the store in {@code namespace}, table by table. */
  static List<String> of(Database database, String namespace) throws SQLException {
    List<String> snapshot = new ArrayList<>();
    try (Connection connection = database.adminConnection()) {
      List<String> tables = new ArrayList<>();
      DatabaseMetaData metadata = connection.getMetaData();
      boolean sqlite = metadata.getURL().startsWith("jdbc:sqlite:");
      try (ResultSet rows = metadata.getTables(null, sqlite ? null : namespace, "%", new String[] {"TABLE"})) {
        while (rows.next()) {
          String table = rows.getString("TABLE_NAME");
          if (!sqlite || table.startsWith(namespace + "_")) {
            tables.add(sqlite ? table : namespace + "\".\"" + table);
          }
        }
      }
      Collections.sort(tables);
      try (Statement statement = connection.createStatement()) {
        for (String table : tables) {
          List<String> rows = new ArrayList<>();
          try (ResultSet result = statement.executeQuery("SELECT * FROM \"" + table + "\"")) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
              StringBuilder row = new StringBuilder(table);
              for (int c = 1; c <= columns; c++) {
                row.append('|').append(result.getString(c));
              }
              rows.add(row.toString());
            }
          }
          Collections.sort(rows);
          snapshot.addAll(rows);
        }
      }
    }
    return snapshot;
  }
}
