package dev.sessionstore.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.StoreClosedException;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.jdbc.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link Database} runs work again when that is safe and useful: after its connection is terminated mid-call, and
 * after a real deadlock; and not past its retry timeout, nor once the store is closed.
 */
class DatabaseRetryTest {

  private final String schema = TestDatabase.uniqueName("retry");
  private final DataSource dataSource = TestDatabase.get().adminDataSource();

  @BeforeEach
  void createTable() {
    TestDatabase.get().execute("CREATE SCHEMA \"" + schema + "\"",
        "CREATE TABLE \"" + schema + "\".t (id int PRIMARY KEY, v int NOT NULL)",
        "INSERT INTO \"" + schema + "\".t VALUES (1, 0), (2, 0)");
  }

  @AfterEach
  void dropSchema() {
    TestDatabase.get().execute("DROP SCHEMA \"" + schema + "\" CASCADE");
  }

  @Test
  @DisplayName("A transaction whose backend is terminated mid-call runs again on a fresh connection and commits once")
  void terminatedMidCallRunsAgain() {
    Database database = new Database(dataSource, new PostgresDialect(), Duration.ofSeconds(30));
    AtomicInteger attempts = new AtomicInteger();

    int result = database.transaction("increment", connection -> {
      increment(connection, 1);
      if (attempts.incrementAndGet() == 1) {
        terminateOwnBackend(connection);
      }
      return attempts.get();
    });

    assertThat(result).as("the attempt that returned").isEqualTo(2);
    assertThat(value(database, 1)).as("increments stored").isEqualTo(1);
  }

  @Test
  @DisplayName("With no retry time left, a terminated call fails as a retryable StoreFailureException and writes"
      + " nothing")
  void terminatedWithoutRetryTimeFails() {
    Database database = new Database(dataSource, new PostgresDialect(), Duration.ZERO);

    assertThatThrownBy(() -> database.transaction("increment", connection -> {
      increment(connection, 1);
      terminateOwnBackend(connection);
      return null;
    })).isInstanceOfSatisfying(StoreFailureException.class, e -> assertThat(e.isRetryable()).isTrue());
    assertThat(value(database, 1)).isZero();
  }

  @Test
  @DisplayName("A transaction terminated mid-call after the store closed does not run again: it ends with"
      + " StoreClosedException and writes nothing")
  void terminatedAfterCloseEndsClosed() {
    Database database = new Database(dataSource, new PostgresDialect(), Duration.ofSeconds(30));
    AtomicInteger attempts = new AtomicInteger();

    assertThatThrownBy(() -> database.transaction("increment", connection -> {
      attempts.incrementAndGet();
      increment(connection, 1);
      database.close();
      terminateOwnBackend(connection);
      return null;
    })).isInstanceOf(StoreClosedException.class).hasCauseInstanceOf(StoreFailureException.class);
    assertThat(attempts.get()).as("attempts").isEqualTo(1);
    assertThat(value(database, 1)).isZero();
  }

  @Test
  @DisplayName("Two transactions that deadlock both commit: the one PostgreSQL aborts runs again")
  void deadlockRunsAgain() throws Exception {
    Database database = new Database(dataSource, new PostgresDialect(), Duration.ofSeconds(60));
    CyclicBarrier bothHoldTheirFirstRow = new CyclicBarrier(2);
    AtomicInteger attempts = new AtomicInteger();

    CompletableFuture<Void> forward = CompletableFuture.runAsync(
        () -> lockInOrder(database, bothHoldTheirFirstRow, attempts, 1, 2));
    CompletableFuture<Void> backward = CompletableFuture.runAsync(
        () -> lockInOrder(database, bothHoldTheirFirstRow, attempts, 2, 1));
    CompletableFuture.allOf(forward, backward).get(2, TimeUnit.MINUTES);

    assertThat(attempts.get()).as("attempts: two, and one more for the deadlock's victim").isEqualTo(3);
    assertThat(value(database, 1)).isEqualTo(2);
    assertThat(value(database, 2)).isEqualTo(2);
  }

  /**
   * Increments row {@code first}, waits (on its first attempt only) until the other transaction holds its own first
   * row, then increments row {@code second}.
   */
  private void lockInOrder(Database database, CyclicBarrier barrier, AtomicInteger attempts, int first,
      int second) {
    AtomicInteger mine = new AtomicInteger();
    database.transaction("deadlock " + first + "-" + second, connection -> {
      attempts.incrementAndGet();
      increment(connection, first);
      if (mine.incrementAndGet() == 1) {
        try {
          barrier.await(1, TimeUnit.MINUTES);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
      increment(connection, second);
      return null;
    });
  }

  private void increment(Connection connection, int id) throws SQLException {
    new Sql(new PostgresDialect()).update(connection, "UPDATE \"" + schema + "\".t SET v = v + 1 WHERE id = ?", id);
  }

  private static void terminateOwnBackend(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("SELECT pg_terminate_backend(pg_backend_pid())");
    }
  }

  private int value(Database database, int id) {
    return database.read("read", connection -> new Sql(database.dialect()).first(connection,
        "SELECT v FROM \"" + schema + "\".t WHERE id = ?", row -> row.getInt(1), id).orElseThrow());
  }
}
