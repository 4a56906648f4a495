package dev.sessionstore.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A PostgreSQL schema of its own for one test, in the database named by {@code SESSION_STORE_TEST_JDBC_URL} (or the
 * {@code sessionstore.test.jdbcUrl} system property); tests using it are skipped when neither is set. Closing drops
 * the schema.
 */
final class PostgresSchema implements AutoCloseable {

  private final String url;
  private final String name = "cli_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  PostgresSchema() {
    String configured = System.getProperty("sessionstore.test.jdbcUrl", System.getenv("SESSION_STORE_TEST_JDBC_URL"));
    assumeTrue(configured != null && !configured.isBlank(),
        "set SESSION_STORE_TEST_JDBC_URL to a PostgreSQL database to run the CLI's PostgreSQL tests");
    this.url = configured;
  }

  String url() {
    return url;
  }

  String name() {
    return name;
  }

  /** The global options that point the tool at this schema. */
  String[] options() {
    return new String[] {"--jdbc-url", url, "--schema", name};
  }

  /** {@code args} followed by {@link #options()}. */
  String[] with(String... args) {
    String[] all = new String[args.length + 4];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(options(), 0, all, args.length, 4);
    return all;
  }

  @Override
  public void close() throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
         Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    }
  }
}
