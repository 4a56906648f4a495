package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An exhausted pool and statements held up by locks (guarantee 17 of docs/guarantees.md): calls fail within their
 * configured timeouts (the store's retry timeout plus the pool's connection timeout; the connections' {@code
 * statement_timeout}) with a {@link StoreFailureException} saying what happened, write nothing, and leave no thread or
 * connection behind: the store's threads and the pool's connections are counted before and after. On the shared
 * PostgreSQL.
 */
class PoolExhaustionTest {

  private static final Duration RETRY = Duration.ofSeconds(2);
  private static final int CONNECTION_TIMEOUT_MS = 500;
  private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration MARGIN = Duration.ofSeconds(15);

  private final Database database = SharedPostgres.get();
  private final String schema = Database.uniqueSchema("exhaustion");
  private OpenStores stores;
  private HikariDataSource pool;
  private SessionStore store;

  @BeforeEach
  void openStore() {
    System.out.println("PoolExhaustionTest runs on: " + database.description());
    stores = new OpenStores(database, schema);
    pool = stores.pool("exhaustion", 3, config -> {
      config.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
      config.addDataSourceProperty("options", "-c statement_timeout=" + STATEMENT_TIMEOUT.toMillis());
    });
    store = stores.store(pool, StoreTuning.defaults().retryTimeout(RETRY));
    store.events().append("warm", NewEvent.of("warm-up"));
  }

  @AfterEach
  void close() throws Exception {
    stores.close();
  }

  @Test
  @DisplayName("With every connection of the pool taken, calls fail within retry + connection timeout, write nothing"
      + " and leak nothing")
  void exhaustedPoolFailsInTime() throws Exception {
    Counts before = Counts.now(pool);
    List<Connection> taken = new ArrayList<>();
    while (pool.getHikariPoolMXBean().getTotalConnections() < 3
        || pool.getHikariPoolMXBean().getIdleConnections() > 0) {
      taken.add(pool.getConnection());
    }
    Failure append = timedFailure(() -> store.events().append("starved", NewEvent.of("never").withId("e-1")));
    Failure read = timedFailure(() -> store.events().read("warm", EventQuery.all()));
    taken.forEach(PoolExhaustionTest::closeQuietly);

    assertThat(store.events().find("starved", "e-1")).as("nothing written").isEmpty();
    store.events().append("starved", NewEvent.of("after").withId("e-2"));
    Counts after = Counts.settled(pool, before);
    System.out.printf("PoolExhaustionTest: pool of 3 exhausted (%d taken by the test): append failed after %d ms,"
            + " read after %d ms (bound %d ms): \"%s\"; store threads %d -> %d, pool connections %d -> %d,"
            + " in use %d -> %d%n", taken.size(), append.millis(), read.millis(), bound(RETRY).toMillis(),
        append.error().getMessage(), before.storeThreads(), after.storeThreads(), before.connections(),
        after.connections(), before.active(), after.active());

    for (Failure failure : List.of(append, read)) {
      assertThat(failure.error()).isNotInstanceOf(OutcomeUnknownException.class);
      assertThat(failure.millis()).isLessThan(bound(RETRY).toMillis());
    }
    assertThat(append.error().getMessage()).containsIgnoringCase("connection");
    assertThat(after.storeThreads()).isLessThanOrEqualTo(before.storeThreads());
    assertThat(after.connections()).isLessThanOrEqualTo(3);
    assertThat(after.active()).as("connections in use (the listener's)").isLessThanOrEqualTo(before.active());
  }

  @Test
  @DisplayName("Statements held up by a lock fail at the connections' statement_timeout, write nothing and leak"
      + " nothing")
  void slowStatementsFailInTime() throws Exception {
    Counts before = Counts.now(pool);
    Failure append;
    Failure read;
    try (Connection locker = database.adminConnection()) {
      locker.setAutoCommit(false);
      lockEveryTable(locker);
      append = timedFailure(() -> store.events().append("slow", NewEvent.of("never").withId("e-1")));
      read = timedFailure(() -> store.events().read("warm", EventQuery.all()));
      locker.rollback();
    }

    assertThat(store.events().find("slow", "e-1")).as("nothing written").isEmpty();
    store.events().append("slow", NewEvent.of("after").withId("e-2"));
    Counts after = Counts.settled(pool, before);
    System.out.printf("PoolExhaustionTest: every table locked, statement_timeout %d ms: append failed after %d ms,"
            + " read after %d ms: \"%s\"; store threads %d -> %d, pool connections %d -> %d, in use %d -> %d%n",
        STATEMENT_TIMEOUT.toMillis(), append.millis(), read.millis(), append.error().getMessage(),
        before.storeThreads(), after.storeThreads(), before.connections(), after.connections(), before.active(),
        after.active());

    for (Failure failure : List.of(append, read)) {
      assertThat(failure.error()).isNotInstanceOf(OutcomeUnknownException.class);
      assertThat(failure.millis()).isLessThan(STATEMENT_TIMEOUT.plus(MARGIN).toMillis());
    }
    assertThat(append.error().getMessage()).containsIgnoringCase("statement timeout");
    assertThat(after.storeThreads()).isLessThanOrEqualTo(before.storeThreads());
    assertThat(after.connections()).isLessThanOrEqualTo(3);
    assertThat(after.active()).as("connections in use (the listener's)").isLessThanOrEqualTo(before.active());
  }

  private static Duration bound(Duration retry) {
    return retry.plusMillis(CONNECTION_TIMEOUT_MS).plus(MARGIN);
  }

  private void lockEveryTable(Connection locker) throws SQLException {
    DatabaseMetaData metadata = locker.getMetaData();
    List<String> tables = new ArrayList<>();
    try (ResultSet rows = metadata.getTables(null, schema, "%", new String[] {"TABLE"})) {
      while (rows.next()) {
        tables.add("\"" + schema + "\".\"" + rows.getString("TABLE_NAME") + "\"");
      }
    }
    try (Statement statement = locker.createStatement()) {
      statement.execute("LOCK TABLE " + String.join(", ", tables) + " IN ACCESS EXCLUSIVE MODE");
    }
  }

  private static Failure timedFailure(Supplier<?> call) {
    long started = System.nanoTime();
    StoreFailureException error = catchThrowableOfType(StoreFailureException.class, call::get);
    assertThat(error).as("the call failed with a StoreFailureException").isNotNull();
    return new Failure(error, (System.nanoTime() - started) / 1_000_000);
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A call that failed, and how long it took. */
  private record Failure(StoreFailureException error, long millis) {
  }

  /** The store's threads (named {@code session-store…}) and the pool's connections. */
  private record Counts(int storeThreads, int connections, int active) {

    static Counts now(HikariDataSource pool) {
      int threads = (int) Thread.getAllStackTraces().keySet().stream()
          .filter(thread -> thread.getName().startsWith("session-store")).count();
      return new Counts(threads, pool.getHikariPoolMXBean().getTotalConnections(),
          pool.getHikariPoolMXBean().getActiveConnections());
    }

    /** The counts once the store's threads are back to at most {@code before}'s, or after 10 s. */
    static Counts settled(HikariDataSource pool, Counts before) throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      Counts counts = now(pool);
      while ((counts.storeThreads() > before.storeThreads() || counts.active() > before.active())
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
        counts = now(pool);
      }
      return counts;
    }
  }
}
