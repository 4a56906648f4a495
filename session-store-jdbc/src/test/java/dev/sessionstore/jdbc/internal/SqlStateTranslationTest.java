package dev.sessionstore.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.ConflictException;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionStoreException;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.jdbc.TestDatabase;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Each SQLState of the classification table that a test can make PostgreSQL raise, raised for real, and the
 * exception a caller gets for it from {@link Database} (with no retry time, so the first failure is reported):
 * its type, the SQLState in its message, and for {@link StoreFailureException} whether it is retryable.
 */
class SqlStateTranslationTest {

  private final String schema = TestDatabase.uniqueName("sqlstate");
  private final Database database = new Database(TestDatabase.get().adminDataSource(), new PostgresDialect(),
      Duration.ZERO);

  @BeforeEach
  void createTables() {
    TestDatabase.get().execute("CREATE SCHEMA \"" + schema + "\"",
        "CREATE TABLE \"" + schema + "\".parent (id int PRIMARY KEY)",
        "CREATE TABLE \"" + schema + "\".child (id int PRIMARY KEY, parent int NOT NULL REFERENCES \"" + schema
            + "\".parent (id), n int CHECK (n >= 0))",
        "INSERT INTO \"" + schema + "\".parent VALUES (1)",
        "INSERT INTO \"" + schema + "\".child VALUES (1, 1, 0)");
  }

  @AfterEach
  void dropSchema() {
    TestDatabase.get().execute("DROP SCHEMA \"" + schema + "\" CASCADE");
  }

  static Stream<Arguments> states() {
    return Stream.of(
        Arguments.of("23505", List.of("INSERT INTO %s.child VALUES (1, 1, 0)"), ConflictException.class, null),
        Arguments.of("23503", List.of("INSERT INTO %s.child VALUES (2, 99, 0)"), ConflictException.class, null),
        Arguments.of("23514", List.of("INSERT INTO %s.child VALUES (2, 1, -1)"), InvalidArgumentException.class,
            null),
        Arguments.of("23502", List.of("INSERT INTO %s.child VALUES (2, NULL, 0)"), InvalidArgumentException.class,
            null),
        Arguments.of("22012", List.of("SELECT 1 / 0"), InvalidArgumentException.class, null),
        Arguments.of("22P02", List.of("SELECT 'x'::int"), InvalidArgumentException.class, null),
        Arguments.of("54000", List.of("SELECT repeat('x', 1073741824)"), InvalidArgumentException.class, null),
        Arguments.of("57014", List.of("SET LOCAL statement_timeout = '10ms'", "SELECT pg_sleep(10)"),
            StoreFailureException.class, true),
        Arguments.of("25006", List.of("SET LOCAL transaction_read_only = on",
            "INSERT INTO %s.parent VALUES (2)"), StoreFailureException.class, true),
        Arguments.of("57P01", List.of("SELECT pg_terminate_backend(pg_backend_pid())"), StoreFailureException.class,
            true),
        Arguments.of("42P01", List.of("SELECT * FROM %s.missing"), StoreFailureException.class, false),
        Arguments.of("42501", List.of("SET LOCAL ROLE pg_monitor", "SELECT * FROM %s.child"),
            StoreFailureException.class, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("states")
  @DisplayName("A SQLState raised by PostgreSQL becomes the exception its class names")
  void translated(String state, List<String> statements, Class<? extends SessionStoreException> type,
      Boolean retryable) {
    assertThatThrownBy(() -> database.transaction("run " + state, connection -> {
      try (Statement statement = connection.createStatement()) {
        for (String sql : statements) {
          statement.execute(sql.formatted("\"" + schema + "\""));
        }
      }
      return null;
    })).isInstanceOf(type).satisfies(e -> assertStoreFailure(e, state, retryable));
  }

  @Test
  @DisplayName("55P03: a lock timeout behind another transaction's row lock is a retryable failure")
  void lockTimeout() throws Exception {
    try (Connection holder = TestDatabase.get().adminDataSource().getConnection();
         Statement statement = holder.createStatement()) {
      holder.setAutoCommit(false);
      statement.execute("SELECT * FROM \"" + schema + "\".child FOR UPDATE");

      assertThatThrownBy(() -> database.transaction("wait for a row lock", connection -> {
        try (Statement waiting = connection.createStatement()) {
          waiting.execute("SET LOCAL lock_timeout = '10ms'");
          waiting.execute("SELECT * FROM \"" + schema + "\".child FOR UPDATE");
        }
        return null;
      })).isInstanceOf(StoreFailureException.class).satisfies(e -> assertStoreFailure(e, "55P03", true));
      holder.rollback();
    }
  }

  @Test
  @DisplayName("08001: a database that refuses connections is a retryable failure")
  void connectionRefused() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    PGSimpleDataSource unreachable = TestDatabase.get().adminDataSource();
    unreachable.setServerNames(new String[] {"127.0.0.1"});
    unreachable.setPortNumbers(new int[] {closedPort});
    Database nowhere = new Database(unreachable, new PostgresDialect(), Duration.ZERO);

    assertThatThrownBy(() -> nowhere.read("read", connection -> null))
        .isInstanceOf(StoreFailureException.class).satisfies(e -> assertStoreFailure(e, "08001", true));
  }

  private static void assertStoreFailure(Throwable error, String state, Boolean retryable) {
    assertThat(error).hasMessageContaining("[" + state + "]");
    if (retryable != null) {
      assertThat(((StoreFailureException) error).isRetryable()).as("retryable").isEqualTo(retryable);
    }
  }
}
