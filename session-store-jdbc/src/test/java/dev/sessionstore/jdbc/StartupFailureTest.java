package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sessionstore.StoreFailureException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A store that cannot start says why within its connect timeout: the driver's reason in the message, and whether
 * a later build may succeed. The bounds are generous (the point is that no pool waits out its 30 s default).
 */
class StartupFailureTest {

  private static final Duration BOUND = Duration.ofSeconds(15);

  @Test
  @DisplayName("A user the database does not know fails the build at once, not retryable, naming the role")
  void wrongUser() {
    String role = "no_such_role_" + ProcessHandle.current().pid();
    StoreFailureException failure = buildFails(postgresUrl(database(), port(), role));

    assertThat(failure.getMessage()).contains("[28", role).doesNotContain("Connection is not available");
    assertThat(failure.isRetryable()).as("retryable").isFalse();
  }

  @Test
  @DisplayName("A database that does not exist fails the build at once, not retryable, with 3D000 and its name")
  void wrongDatabase() {
    String database = "no_such_database_" + ProcessHandle.current().pid();
    StoreFailureException failure = buildFails(postgresUrl(database, port(), user()));

    assertThat(failure.getMessage()).contains("[3D000]", "database \"" + database + "\" does not exist");
    assertThat(failure.isRetryable()).as("retryable").isFalse();
  }

  @Test
  @DisplayName("A port nothing listens on fails the build within the connect timeout, retryable, saying it was"
      + " refused")
  void refusedPort() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    long start = System.nanoTime();
    StoreFailureException failure = buildFails(postgresUrl(database(), closedPort, user()));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("elapsed, with a connect timeout of 1 s")
        .isLessThan(Duration.ofSeconds(5));
    assertThat(failure.getMessage()).contains("[08001]", "refused", "retryable");
    assertThat(failure.isRetryable()).as("retryable").isTrue();
  }

  @Test
  @DisplayName("A SQLite file in a folder that does not exist fails the build at once, not retryable, naming the"
      + " folder")
  void sqliteFileInMissingFolder() throws IOException {
    Path folder = Files.createTempDirectory("session-store-startup-").resolve("missing");
    StoreFailureException failure = buildFails("jdbc:sqlite:" + folder.resolve("agents.db"));

    assertThat(failure.getMessage()).contains(folder.toString()).doesNotContain("Connection is not available");
    assertThat(failure.isRetryable()).as("retryable").isFalse();
  }

  @Test
  @DisplayName("A data source of one's own whose database does not exist fails the build with the driver's reason")
  void ownDataSourceSaysWhy() {
    PGSimpleDataSource missing = TestDatabase.get().adminDataSource();
    missing.setDatabaseName("no_such_database_" + ProcessHandle.current().pid());
    long start = System.nanoTime();
    Throwable failure = catchThrowable(() -> JdbcSessionStore.builder().dataSource(missing).build().close());

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
    assertThat(failure).isInstanceOfSatisfying(StoreFailureException.class, e -> {
      assertThat(e.getMessage()).contains("[3D000]", "does not exist");
      assertThat(e.isRetryable()).as("retryable").isFalse();
    });
  }

  /** Builds a store from {@code url} with a connect timeout of 1 s, which must fail within the bound. */
  private static StoreFailureException buildFails(String url) {
    long start = System.nanoTime();
    Throwable failure = catchThrowable(() -> JdbcSessionStore.builder().jdbcUrl(url)
        .connectTimeout(Duration.ofSeconds(1)).build().close());
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

    assertThat(elapsed).as("time to fail").isLessThan(BOUND);
    assertThat(failure).isInstanceOf(StoreFailureException.class);
    System.out.printf("StartupFailureTest: %s failed in %d ms: %s%n", url.replaceAll("\\?.*", ""),
        elapsed.toMillis(), failure.getMessage());
    return (StoreFailureException) failure;
  }

  private static String postgresUrl(String database, int port, String user) {
    PGSimpleDataSource admin = TestDatabase.get().adminDataSource();
    String url = "jdbc:postgresql://" + admin.getServerNames()[0] + ":" + port + "/" + database + "?user=" + user;
    return admin.getPassword() == null ? url : url + "&password=" + admin.getPassword();
  }

  private static String database() {
    return TestDatabase.get().adminDataSource().getDatabaseName();
  }

  private static int port() {
    return TestDatabase.get().adminDataSource().getPortNumbers()[0];
  }

  private static String user() {
    return TestDatabase.get().adminDataSource().getUser();
  }
}
