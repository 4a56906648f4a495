package dev.sessionstore.cli;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The bytes that one store's own tables take, with their indexes, not the whole database: on PostgreSQL the sum of
 * {@code pg_total_relation_size} (table, indexes and TOAST) over the tables of the store's schema whose names start
 * with its table prefix; on SQLite the sum of the pages ({@code dbstat}) of the tables with that prefix and of their
 * indexes. Tables of another store whose longer prefix starts with this one (found by its own
 * {@code <prefix>schema_version} table) are left out. The in-memory store has no size.
 *
 * @param bytes  the bytes the tables and their indexes take
 * @param tables how many tables were counted
 */
record StoreSize(long bytes, int tables) {

  private static final String DEFAULT_SCHEMA = "public";
  private static final String DEFAULT_PREFIX = "session_store_";
  private static final String VERSION_TABLE = "schema_version";

  private static final String POSTGRES_TABLES = "SELECT c.relname, pg_total_relation_size(c.oid)"
      + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
      + " WHERE n.nspname = ? AND c.relkind IN ('r', 'p') AND left(c.relname, length(?)) = ?";
  private static final String SQLITE_TABLES = "SELECT m.tbl_name, SUM(d.pgsize)"
      + " FROM dbstat d JOIN sqlite_master m ON m.name = d.name"
      + " WHERE substr(m.tbl_name, 1, length(?)) = ? GROUP BY m.tbl_name";

  /**
   * The size of {@code opened}'s tables, or empty for the in-memory store and when the database cannot tell (for
   * example a SQLite library built without {@code dbstat}).
   */
  static Optional<StoreSize> of(OpenedStore opened) {
    StoreTarget target = opened.target();
    if (target.isMemory()) {
      return Optional.empty();
    }
    String prefix = target.tablePrefix() == null ? DEFAULT_PREFIX : target.tablePrefix();
    try {
      if (opened.pool() != null) {
        try (Connection connection = opened.pool().getConnection()) {
          String schema = target.schema() == null ? DEFAULT_SCHEMA : target.schema();
          return Optional.of(ofStore(tableSizes(connection, POSTGRES_TABLES, schema, prefix, prefix), prefix));
        }
      }
      try (Connection connection = DriverManager.getConnection(target.jdbcUrl())) {
        return Optional.of(ofStore(tableSizes(connection, SQLITE_TABLES, prefix, prefix), prefix));
      }
    } catch (SQLException e) {
      return Optional.empty();
    }
  }

  private static Map<String, Long> tableSizes(Connection connection, String sql, String... parameters)
      throws SQLException {
    Map<String, Long> sizes = new TreeMap<>();
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setString(i + 1, parameters[i]);
      }
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          sizes.put(rows.getString(1), rows.getLong(2));
        }
      }
    }
    return sizes;
  }

  /** Sums the tables that start with {@code prefix}, without those of stores with a longer prefix. */
  static StoreSize ofStore(Map<String, Long> sizeByTable, String prefix) {
    List<String> others = sizeByTable.keySet().stream()
        .filter(table -> table.endsWith(VERSION_TABLE) && !table.equals(prefix + VERSION_TABLE))
        .map(table -> table.substring(0, table.length() - VERSION_TABLE.length()))
        .filter(other -> other.startsWith(prefix))
        .toList();
    long bytes = 0;
    int tables = 0;
    for (Map.Entry<String, Long> table : sizeByTable.entrySet()) {
      if (table.getKey().startsWith(prefix) && others.stream().noneMatch(table.getKey()::startsWith)) {
        bytes += table.getValue();
        tables++;
      }
    }
    return new StoreSize(bytes, tables);
  }
}
