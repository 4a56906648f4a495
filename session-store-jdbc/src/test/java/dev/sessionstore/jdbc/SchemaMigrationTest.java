package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import dev.sessionstore.micrometer.ObservedSessionStore;
import io.micrometer.observation.ObservationRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The store creates its schema once, records the version, and leaves a migrated schema alone; a hung or failed
 * migration neither blocks other nodes forever nor hides its error.
 */
class SchemaMigrationTest {

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("Building creates the schema and records versions 1 to 8 in the version table")
  void recordsTheVersion() {
    SessionStore store = schema.store(builder -> builder);

    assertThat(schema.queryValue("SELECT string_agg(version || ':' || description, ',' ORDER BY version) FROM \""
        + schema.name() + "\".session_store_schema_version"))
        .isEqualTo("1:schema,2:writer_fencing,3:retention,4:append_fresh,5:search,6:expiry,7:search_writes,"
            + "8:append_one_without_subtransaction");
    assertThat(store.schemaVersion()).isEqualTo(OptionalInt.of(8));
  }

  @Test
  @DisplayName("A store answers the version its schema records, migrated or only checked, newer ones included; closed,"
      + " it refuses")
  void answersTheRecordedVersion() {
    schema.store(builder -> builder).close();
    assertThat(schema.store(builder -> builder.createSchema(false)).schemaVersion()).isEqualTo(OptionalInt.of(8));

    schema.queryValue("INSERT INTO \"" + schema.name() + "\".session_store_schema_version (version, description)"
        + " VALUES (9, 'from_a_newer_library') RETURNING version");
    assertThat(schema.store(builder -> builder.createSchema(false)).schemaVersion()).isEqualTo(OptionalInt.of(9));
    SessionStore migrating = schema.store(builder -> builder);
    assertThat(migrating.schemaVersion()).isEqualTo(OptionalInt.of(9));

    migrating.close();
    assertThatThrownBy(migrating::schemaVersion).isInstanceOf(StoreClosedException.class);
  }

  @Test
  @DisplayName("An observed and an encrypting store answer the schema version of the store they decorate")
  void decoratorsAnswerTheirDelegatesVersion() {
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) 3);
    SessionStore decorated = EncryptingSessionStore.builder(
        ObservedSessionStore.builder(schema.store(builder -> builder)).registry(ObservationRegistry.create())
            .adapter("postgresql").build())
        .keys(KeyProvider.of("k1", key)).build();

    assertThat(decorated.schemaVersion()).isEqualTo(OptionalInt.of(8));
    decorated.close();
  }

  @Test
  @DisplayName("Building again on a migrated schema changes nothing and keeps the data")
  void remigrationIsIdempotent() {
    SessionStore first = schema.store(builder -> builder);
    first.events().append("s", NewEvent.of("message"));
    first.close();

    SessionStore second = schema.store(builder -> builder);

    assertThat(second.events().lastSeq("s")).isEqualTo(1);
    assertThat(schema.queryValue("SELECT count(*) FROM \"" + schema.name() + "\".session_store_schema_version"))
        .isEqualTo(8L);
  }

  @Test
  @DisplayName("A schema at version 7 migrates to 8: its events stay, and an append of one event then takes no"
      + " subtransaction")
  void migrationFromVersion7DropsTheSubtransaction() throws SQLException {
    String quoted = "\"" + schema.name() + "\"";
    TransactionIds transactions;
    try (Connection connection = TestDatabase.get().adminDataSource().getConnection();
         Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + quoted);
      OlderSchema.createAtVersion(connection, "postgresql", quoted, 7);
      transactions = TransactionIds.noteOn(schema);
      statement.execute("SELECT " + quoted + ".session_store_append_fresh_one('s', NULL, now(), 'old', 'message',"
          + " NULL, NULL, NULL, '{}'::json, NULL, '')");
    }
    assertThat(transactions.writtenInSubtransactions()).as("the version 7 function's subtransaction").isEqualTo(1);

    SessionStore store = schema.store(builder -> builder);
    store.events().append("s", NewEvent.of("message").withId("new"));

    assertThat(store.schemaVersion()).isEqualTo(OptionalInt.of(8));
    assertThat(store.events().read("s", EventQuery.all()).items()).extracting(Event::id)
        .containsExactly("old", "new");
    assertThat(transactions.noted()).isEqualTo(2);
    assertThat(transactions.writtenInSubtransactions()).as("only the version 7 append's row").isEqualTo(1);
  }

  @Test
  @DisplayName("Building over leftovers of a dropped store (its tables dropped, its functions kept) migrates again")
  void migrationRunsOverLeftoverFunctions() {
    SessionStore first = schema.store(builder -> builder);
    first.events().append("s", NewEvent.of("message"));
    first.close();
    String tables = (String) schema.queryValue("SELECT string_agg(format('%I.%I', schemaname, tablename), ', ')"
        + " FROM pg_tables WHERE schemaname = ?", schema.name());
    TestDatabase.get().execute("DROP TABLE " + tables + " CASCADE");
    assertThat(schema.queryValue("SELECT count(*) FROM pg_proc WHERE pronamespace = ?::regnamespace",
        "\"" + schema.name() + "\"")).as("functions left over").isEqualTo(5L);

    SessionStore second = schema.store(builder -> builder);

    assertThat(second.events().lastSeq("s")).isZero();
    assertThat(second.events().appendAll("s", List.of(NewEvent.of("a"), NewEvent.of("b"))))
        .extracting(Event::seq).containsExactly(1L, 2L);
    assertThat(schema.queryValue("SELECT string_agg(version || ':' || description, ',') FROM \""
        + schema.name() + "\".session_store_schema_version"))
        .isEqualTo("1:schema,2:writer_fencing,3:retention,4:append_fresh,5:search,6:expiry,7:search_writes,"
            + "8:append_one_without_subtransaction");
  }

  @Test
  @DisplayName("Eight stores starting at once on a fresh schema all start, and the schema is migrated once")
  void concurrentStartsMigrateOnce() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(8);
    List<Future<SessionStore>> starts = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      starts.add(threads.submit((Callable<SessionStore>) () -> schema.store(builder -> builder)));
    }
    for (Future<SessionStore> start : starts) {
      start.get(1, TimeUnit.MINUTES).events().append("s", NewEvent.of("message"));
    }
    threads.shutdown();

    assertThat(schema.queryValue("SELECT count(*) FROM \"" + schema.name() + "\".session_store_schema_version"))
        .isEqualTo(8L);
  }

  @Test
  @DisplayName("With createSchema(false) a schema without the tables fails the build, naming the fix")
  void missingSchemaFailsWithoutCreateSchema() {
    assertThatThrownBy(() -> schema.store(builder -> builder.createSchema(false)))
        .isInstanceOf(StoreFailureException.class)
        .hasMessageContaining("version 0")
        .hasMessageContaining("createSchema(true)");
  }

  @Test
  @DisplayName("A node hung while it holds the migration lock makes another node's build fail after the lock timeout,"
      + " retryably, saying so; once the hung node goes on, both start")
  void hungMigrationTimesOthersOut() throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService threads = Executors.newSingleThreadExecutor();
    try {
      Future<SessionStore> hung = threads.submit(() -> schema.store(
          hangingAfterTheLock(schema.pool(2), holding, release), builder -> builder));
      assertThat(holding.await(1, TimeUnit.MINUTES)).as("the first node holds the lock").isTrue();

      assertThatThrownBy(() -> schema.store(builder -> builder.migrationLockTimeout(Duration.ofMillis(200))))
          .isInstanceOfSatisfying(StoreFailureException.class, e -> assertThat(e.isRetryable()).isTrue())
          .hasMessageContaining("is being migrated by another node")
          .hasMessageContaining("migrationLockTimeout")
          .hasMessageContaining("lock timeout");

      release.countDown();
      hung.get(1, TimeUnit.MINUTES).events().append("s", NewEvent.of("message"));
      assertThat(schema.store(builder -> builder).events().lastSeq("s")).isEqualTo(1);
    } finally {
      release.countDown();
      threads.shutdown();
    }
  }

  @Test
  @DisplayName("A migration whose connection is terminated while it holds the lock fails with that error, not a"
      + " cleanup's; the lock is not left held and the next build migrates")
  void terminatedMigrationReportsTheFirstError() {
    assertThatThrownBy(() -> schema.store(terminatingAfterTheLock(schema.pool(2)),
        builder -> builder.retryTimeout(Duration.ZERO)))
        .isInstanceOfSatisfying(StoreFailureException.class, e -> assertThat(e.isRetryable()).isTrue())
        .hasMessageMatching(
            "(?s).*(\\[(57P01|08003|08006)\\]|[Cc]onnection is closed|connection has been closed).*")
        .hasMessageNotContaining("unlock");

    SessionStore store = schema.store(builder -> builder.migrationLockTimeout(Duration.ofSeconds(30)));
    assertThat(store.events().lastSeq("s")).isZero();
  }

  /**
   * {@code dataSource}, whose connections stop (signalling {@code holding}) on the first statement after taking the
   * migration lock, until {@code release}.
   */
  private static DataSource hangingAfterTheLock(DataSource dataSource, CountDownLatch holding,
      CountDownLatch release) {
    return afterTheLock(dataSource, connection -> {
      holding.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }

  /** {@code dataSource}, whose connections terminate their own backend on the first statement after the lock. */
  private static DataSource terminatingAfterTheLock(DataSource dataSource) {
    return afterTheLock(dataSource, connection -> {
      try (var statement = connection.createStatement()) {
        statement.execute("SELECT pg_terminate_backend(pg_backend_pid())");
      } catch (SQLException e) {
        // terminated, as intended
      }
    });
  }

  private static DataSource afterTheLock(DataSource dataSource, Consumer<Connection> action) {
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, arguments) -> {
          Object result = invoke(method, dataSource, arguments);
          if (!(result instanceof Connection connection)) {
            return result;
          }
          AtomicBoolean locked = new AtomicBoolean();
          return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
              (connectionProxy, connectionMethod, connectionArguments) -> {
                if (connectionMethod.getName().equals("prepareStatement")) {
                  String sql = (String) connectionArguments[0];
                  if (locked.compareAndSet(true, false)) {
                    action.accept(connection);
                  } else if (sql.contains("pg_advisory_xact_lock")) {
                    locked.set(true);
                  }
                }
                return invoke(connectionMethod, connection, connectionArguments);
              });
        });
  }

  private static Object invoke(Method method, Object target, Object[] arguments) throws Throwable {
    try {
      return method.invoke(target, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
