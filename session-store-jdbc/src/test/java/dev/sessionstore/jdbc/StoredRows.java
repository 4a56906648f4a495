package dev.sessionstore.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.sql.DataSource;

/** Reads a PostgreSQL schema's tables directly, row by row as text, for tests of what is stored at rest. */
final class StoredRows {

  private StoredRows() {
  }

  /** The base tables of {@code schema}. */
  static List<String> tables(DataSource pool, String schema) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Connection connection = pool.getConnection();
         PreparedStatement statement = connection.prepareStatement(
             "SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'")) {
      statement.setString(1, schema);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          tables.add(rows.getString(1));
        }
      }
    }
    return tables;
  }

  /**
   * Every row of every table of {@code schema}, as text ({@code bytea} as hex), that holds {@code text} in text or in
   * hex, each as {@code table: row}.
   */
  static List<String> containing(DataSource pool, String schema, String text) throws SQLException {
    String hex = HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8));
    List<String> found = new ArrayList<>();
    try (Connection connection = pool.getConnection()) {
      for (String table : tables(pool, schema)) {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT t::text FROM \"" + schema + "\".\"" + table + "\" t")) {
          while (rows.next()) {
            String row = rows.getString(1);
            if (row.contains(text) || row.contains(hex)) {
              found.add(table + ": " + row);
            }
          }
        }
      }
    }
    return found;
  }
}
