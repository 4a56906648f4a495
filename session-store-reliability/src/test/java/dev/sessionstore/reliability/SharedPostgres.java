package dev.sessionstore.reliability;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The PostgreSQL that tests which never disturb their database share: the one named by the environment variable
 * {@value #URL_VARIABLE} or the system property {@value #URL_PROPERTY} (CI points it at the machine's server), else an
 * embedded one started for this JVM. Each test keeps its tables in a schema of its own. The choice is printed.
 */
final class SharedPostgres implements Database {

  static final String URL_VARIABLE = "SESSION_STORE_TEST_JDBC_URL";
  static final String URL_PROPERTY = "sessionstore.test.jdbcUrl";

  private static Database instance;

  private final String url;

  private SharedPostgres(String url) {
    this.url = url;
  }

  /** The shared database of this JVM, chosen (and, if embedded, started) on first use. */
  static synchronized Database get() {
    if (instance == null) {
      String explicit = System.getenv(URL_VARIABLE);
      if (explicit == null || explicit.isBlank()) {
        explicit = System.getProperty(URL_PROPERTY);
      }
      if (explicit != null && !explicit.isBlank()) {
        instance = new SharedPostgres(explicit);
        System.out.println("session-store reliability tests use: explicit URL "
            + explicit.replaceAll("password=[^&]*", "password=***"));
      } else {
        System.out.println("session-store reliability tests: no " + URL_VARIABLE + " given, starting an embedded"
            + " PostgreSQL");
        OwnedPostgres embedded = OwnedPostgres.start();
        Runtime.getRuntime().addShutdownHook(new Thread(embedded::close));
        instance = embedded;
      }
    }
    return instance;
  }

  @Override
  public String description() {
    return "shared PostgreSQL " + url.replaceAll("password=[^&]*", "password=***");
  }

  @Override
  public String jdbcUrl() {
    return url;
  }

  @Override
  public Connection adminConnection() throws SQLException {
    return DriverManager.getConnection(url);
  }

  @Override
  public void close() {
    // shared for the JVM's lifetime
  }
}
