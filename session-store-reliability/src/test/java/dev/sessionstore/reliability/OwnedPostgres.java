package dev.sessionstore.reliability;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A PostgreSQL server of one test class alone (embedded binaries on a port and data directory of its own), which
 * the test may stop, start again on the same data, or whose backends it may terminate; the shared test database is
 * never disturbed.
 */
final class OwnedPostgres implements Database, BeforeAllCallback, AfterAllCallback {

  private final Path dataDirectory;
  private final int port;
  private EmbeddedPostgres server;

  private OwnedPostgres(Path dataDirectory, int port) {
    this.dataDirectory = dataDirectory;
    this.port = port;
  }

  /** Initializes a fresh data directory and starts the server on a free port. */
  static OwnedPostgres start() {
    OwnedPostgres postgres = create();
    postgres.beforeAll(null);
    return postgres;
  }

  /**
   * A server for one test class, not started yet: register it as a static {@code @RegisterExtension} field, and it
   * starts before the class's tests and is removed after them.
   */
  static OwnedPostgres perTestClass() {
    return create();
  }

  private static OwnedPostgres create() {
    try {
      Path directory = Files.createTempDirectory("session-store-reliability-");
      Files.delete(directory); // initdb creates it
      try (ServerSocket socket = new ServerSocket(0)) {
        return new OwnedPostgres(directory, socket.getLocalPort());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("preparing an embedded PostgreSQL failed", e);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    startAgain();
    System.out.println("session-store reliability test uses: " + description());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  @Override
  public String description() {
    return "embedded PostgreSQL owned by the test, " + jdbcUrl() + ", data in " + dataDirectory;
  }

  @Override
  public String jdbcUrl() {
    return "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
  }

  @Override
  public Connection adminConnection() throws SQLException {
    return DriverManager.getConnection(jdbcUrl());
  }

  /** Stops the server (fast shutdown: every backend terminated, clients disconnected). */
  synchronized void stop() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException("stopping the embedded PostgreSQL failed", e);
    }
  }

  /** Starts the stopped server (again) on its data directory and port. */
  synchronized void startAgain() {
    try {
      server = launch();
    } catch (IOException e) {
      throw new UncheckedIOException("starting the embedded PostgreSQL again failed", e);
    }
  }

  /**
   * Terminates one backend serving {@code applicationName} whose current query matches {@code queryLike} (a
   * {@code LIKE} pattern), if one is running such a query now, and returns whether one was terminated.
   */
  boolean terminateOne(String applicationName, String queryLike) throws SQLException {
    try (Connection connection = adminConnection();
         PreparedStatement statement = connection.prepareStatement("SELECT count(pg_terminate_backend(pid))"
             + " FROM (SELECT pid FROM pg_stat_activity WHERE application_name = ? AND state = 'active'"
             + " AND query LIKE ? LIMIT 1) AS chosen")) {
      statement.setString(1, applicationName);
      statement.setString(2, queryLike);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getInt(1) > 0;
      }
    }
  }

  @Override
  public void close() {
    stop();
    try (Stream<Path> paths = Files.walk(dataDirectory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("removing " + dataDirectory + " failed", e);
    }
  }

  private EmbeddedPostgres launch() throws IOException {
    return EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(false).setPort(port)
        .setServerConfig("max_connections", "300")
        .setServerConfig("fsync", "on") // commits wait for the disk, so that commit_delay can hold them open
        .start();
  }
}
