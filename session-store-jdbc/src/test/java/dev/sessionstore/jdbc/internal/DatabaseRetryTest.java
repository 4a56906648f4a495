package dev.sessionstore.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.StoreClosedException;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.jdbc.StoreEventsRecorder;
import dev.sessionstore.jdbc.TestDatabase;
import dev.sessionstore.spi.RetryCause;
import dev.sessionstore.spi.SettledOutcome;
import dev.sessionstore.spi.StoreEvents;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
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
 * after a real deadlock or serialization failure; and not past its retry timeout, nor once the store is closed. Each
 * run again is reported to the store's events with its cause, and each doubt it settles as a settled outcome.
 */
class DatabaseRetryTest {

  private final String schema = TestDatabase.uniqueName("retry");
  private final DataSource dataSource = TestDatabase.get().adminDataSource();
  private final StoreEventsRecorder recorder = new StoreEventsRecorder();
  private final List<RetryCause> retries = recorder.retries;
  private final List<SettledOutcome> settled = recorder.settled;

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
  @DisplayName("A transaction whose backend is terminated mid-call runs again on a fresh connection and commits once,"
      + " reported as one retry for the connection and nothing to settle")
  void terminatedMidCallRunsAgain() {
    Database database = new Database(dataSource, new PostgresDialect(), Duration.ofSeconds(30));
    database.events().subscribe(recorder);
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
    assertThat(retries).containsExactly(RetryCause.CONNECTION);
    assertThat(settled).as("nothing was in doubt: the commit was never sent").isEmpty();
  }

  @Test
  @DisplayName("Auto-committed work whose backend is terminated after it wrote is in doubt, and settled once by"
      + " running it again")
  void autoCommittedDoubtIsSettledByRunningAgain() {
    Database database = new Database(dataSource, new PostgresDialect(), Duration.ofSeconds(30));
    database.events().subscribe(recorder);
    AtomicInteger attempts = new AtomicInteger();

    database.autoCommit("set", connection -> {
      new Sql(new PostgresDialect()).update(connection, "UPDATE \"" + schema + "\".t SET v = 7 WHERE id = 1");
      if (attempts.incrementAndGet() == 1) {
        terminateOwnBackend(connection);
      }
      return null;
    });

    assertThat(attempts.get()).isEqualTo(2);
    assertThat(value(database, 1)).isEqualTo(7);
    assertThat(retries).containsExactly(RetryCause.CONNECTION);
    assertThat(settled).containsExactly(SettledOutcome.RAN_AGAIN);
  }

  @Test
  @DisplayName("Auto-committed work in doubt that can check what is stored is settled once, as applied, without"
      + " running again")
  void checkedDoubtIsSettledAsApplied() {
    Database database = new Database(dataSource, new PostgresDialect(), Duration.ofSeconds(30));
    database.events().subscribe(recorder);
    AtomicInteger attempts = new AtomicInteger();
    Sql sql = new Sql(new PostgresDialect());

    int result = database.autoCommit("set", UnknownOutcome.check(connection -> sql.first(connection,
        "SELECT v FROM \"" + schema + "\".t WHERE id = 1 AND v = 7", row -> row.getInt(1))), connection -> {
          attempts.incrementAndGet();
          sql.update(connection, "UPDATE \"" + schema + "\".t SET v = 7 WHERE id = 1");
          terminateOwnBackend(connection);
          return -1;
        });

    assertThat(result).as("the stored value, read by the check").isEqualTo(7);
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(settled).containsExactly(SettledOutcome.APPLIED);
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
  @DisplayName("Two transactions that deadlock both commit: the one PostgreSQL aborts runs again, reported as one"
      + " retry for a deadlock (a listener that throws changes nothing)")
  void deadlockRunsAgain() throws Exception {
    Database database = new Database(dataSource, new PostgresDialect(), Duration.ofSeconds(60));
    database.events().subscribe(recorder);
    database.events().subscribe(new StoreEvents() {
      @Override
      public void retried(RetryCause cause) {
        throw new IllegalStateException("a listener that fails");
      }
    });
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
    assertThat(retries).containsExactly(RetryCause.DEADLOCK);
  }

  @Test
  @DisplayName("Two serializable transactions in a write skew both commit: the one PostgreSQL fails to serialize"
      + " runs again, reported as one retry for serialization")
  void serializationFailureRunsAgain() throws Exception {
    Database database = new Database(dataSource, new PostgresDialect(), Duration.ofSeconds(60));
    database.events().subscribe(recorder);
    CyclicBarrier bothHaveRead = new CyclicBarrier(2);
    AtomicInteger attempts = new AtomicInteger();

    CompletableFuture<Void> one = CompletableFuture.runAsync(() -> skew(database, bothHaveRead, attempts, 1));
    CompletableFuture<Void> two = CompletableFuture.runAsync(() -> skew(database, bothHaveRead, attempts, 2));
    CompletableFuture.allOf(one, two).get(2, TimeUnit.MINUTES);

    assertThat(attempts.get()).as("attempts: two, and one more for the one that failed to serialize").isEqualTo(3);
    assertThat(value(database, 1) + value(database, 2)).isEqualTo(2);
    assertThat(retries).containsExactly(RetryCause.SERIALIZATION);
  }

  /**
   * In a serializable transaction, reads both rows, waits (on its first attempt only) until the other transaction
   * has read them too, then increments row {@code id}: a write skew PostgreSQL refuses to commit twice.
   */
  private void skew(Database database, CyclicBarrier barrier, AtomicInteger attempts, int id) {
    AtomicInteger mine = new AtomicInteger();
    database.transaction("skew " + id, connection -> {
      attempts.incrementAndGet();
      try (Statement statement = connection.createStatement()) {
        statement.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        statement.executeQuery("SELECT sum(v) FROM \"" + schema + "\".t").close();
      }
      meetOnFirstAttempt(barrier, mine);
      increment(connection, id);
      return null;
    });
  }

  /** Waits at {@code barrier} for the other transaction on this one's first attempt ({@code mine} counts them). */
  private static void meetOnFirstAttempt(CyclicBarrier barrier, AtomicInteger mine) {
    if (mine.incrementAndGet() == 1) {
      try {
        barrier.await(1, TimeUnit.MINUTES);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
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
      meetOnFirstAttempt(barrier, mine);
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
