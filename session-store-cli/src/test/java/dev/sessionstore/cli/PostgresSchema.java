package dev.sessionstore.cli;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A PostgreSQL schema of its own for one test, in the database named by {@code SESSION_STORE_TEST_JDBC_URL} (or the
 * {@code sessionstore.test.jdbcUrl} system property), else in an embedded PostgreSQL started once for this JVM; the
 * choice is printed. Closing drops the schema.
 */
final class PostgresSchema implements AutoCloseable {

  private static String database;

  private final String url;
  private final String name = "cli_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  PostgresSchema() {
    this.url = database();
  }

  private static synchronized String database() {
    if (database == null) {
      String configured = System.getProperty("sessionstore.test.jdbcUrl",
          System.getenv("SESSION_STORE_TEST_JDBC_URL"));
      if (configured != null && !configured.isBlank()) {
        database = configured;
        System.out.println("session-store CLI tests use: explicit URL "
            + configured.replaceAll("password=[^&]*", "password=***"));
      } else {
        database = startEmbedded();
        System.out.println("session-store CLI tests use: embedded PostgreSQL " + database
            + " (no SESSION_STORE_TEST_JDBC_URL given)");
      }
    }
    return database;
  }

  private static String startEmbedded() {
    try {
      EmbeddedPostgres embedded = EmbeddedPostgres.builder().start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          embedded.close();
        } catch (IOException e) {
          System.err.println("stopping the embedded PostgreSQL failed: " + e);
        }
      }));
      return embedded.getJdbcUrl("postgres", "postgres");
    } catch (IOException e) {
      throw new UncheckedIOException("no SESSION_STORE_TEST_JDBC_URL given and the embedded PostgreSQL did not start",
          e);
    }
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
