package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stats} measures the store's own tables with their indexes, not the database: two stores in one PostgreSQL
 * schema or one SQLite file, the second with a longer prefix that starts with the first's, are measured apart.
 */
class StatsTest {

  /**
   * A store's tables: sessions, events, segments, runs, tool calls, summaries, checkpoints (2), model calls, writer
   * claims, version.
   */
  private static final int TABLES = 11;
  /** SQLite: the same tables and the four shadow tables of the FTS5 search index (data, idx, docsize, config). */
  private static final int SQLITE_TABLES = TABLES + 4;
  private static final String OTHER_PREFIX = "session_store_b_";

  @TempDir
  Path folder;

  @Test
  @DisplayName("PostgreSQL: the size is pg_total_relation_size summed over the store's own tables")
  void postgres() throws Exception {
    try (PostgresSchema schema = new PostgresSchema()) {
      assertThat(Cli.run(schema.with("demo")).exitCode()).isZero();
      assertThat(Cli.run(schema.with("demo", "--table-prefix", OTHER_PREFIX)).exitCode()).isZero();

      JsonNode first = stats(schema.with("stats", "--json"));
      JsonNode second = stats(schema.with("stats", "--json", "--table-prefix", OTHER_PREFIX));
      Cli.Result text = Cli.run(schema.with("stats"));

      assertThat(first.get("sizeTables").asInt()).isEqualTo(TABLES);
      assertThat(second.get("sizeTables").asInt()).isEqualTo(TABLES);
      assertThat(first.get("sizeBytes").asLong())
          .isEqualTo(postgresSize(schema, "left(tablename, 14) = 'session_store_' AND left(tablename, 16) <> ?"));
      assertThat(second.get("sizeBytes").asLong()).isEqualTo(postgresSize(schema, "left(tablename, 16) = ?"));
      assertThat(first.get("sizeBytes").asLong()).isLessThan(databaseSize(schema));
      assertThat(text.out()).contains("size:              " + first.get("sizeBytes").asLong()
          + " bytes in the store's " + TABLES + " tables with their indexes");
    }
  }

  @Test
  @DisplayName("SQLite: the size is the pages of the store's own tables and indexes, not the file's")
  void sqlite() throws Exception {
    String url = "jdbc:sqlite:" + folder.resolve("two-stores.db");
    assertThat(Cli.run("demo", "--jdbc-url", url).exitCode()).isZero();
    long alone = stats("stats", "--json", "--jdbc-url", url).get("sizeBytes").asLong();

    assertThat(Cli.run("demo", "--jdbc-url", url, "--table-prefix", OTHER_PREFIX).exitCode()).isZero();
    JsonNode first = stats("stats", "--json", "--jdbc-url", url);
    JsonNode second = stats("stats", "--json", "--jdbc-url", url, "--table-prefix", OTHER_PREFIX);

    assertThat(first.get("sizeTables").asInt()).isEqualTo(SQLITE_TABLES);
    assertThat(second.get("sizeTables").asInt()).isEqualTo(SQLITE_TABLES);
    assertThat(first.get("sizeBytes").asLong()).as("the other store's tables are not counted").isEqualTo(alone);
    assertThat(second.get("sizeBytes").asLong()).isPositive();
    assertThat(first.get("sizeBytes").asLong() + second.get("sizeBytes").asLong())
        .as("both stores take less than the whole file").isLessThan(sqliteFileSize(url));
  }

  @Test
  @DisplayName("The in-memory store has no size: - in a table, no sizeBytes in JSON")
  void memory() {
    assertThat(Cli.run("stats", "--memory").out()).contains("size:              -");
    assertThat(stats("stats", "--memory", "--json").has("sizeBytes")).isFalse();
  }

  private static JsonNode stats(String... args) {
    Cli.Result result = Cli.run(args);
    assertThat(result.exitCode()).as(result.err()).isZero();
    return Json.parse(result.out());
  }

  private static long postgresSize(PostgresSchema schema, String tables) throws SQLException {
    return single(schema.url(), "SELECT sum(pg_total_relation_size(format('%I.%I', schemaname, tablename)::regclass))"
        + " FROM pg_tables WHERE schemaname = ? AND " + tables, schema.name(), OTHER_PREFIX);
  }

  private static long databaseSize(PostgresSchema schema) throws SQLException {
    return single(schema.url(), "SELECT pg_database_size(current_database())");
  }

  private static long sqliteFileSize(String url) throws SQLException {
    return single(url, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
  }

  private static long single(String url, String sql, String... parameters) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
         PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setString(i + 1, parameters[i]);
      }
      try (ResultSet result = statement.executeQuery()) {
        assertThat(result.next()).isTrue();
        return result.getLong(1);
      }
    }
  }
}
