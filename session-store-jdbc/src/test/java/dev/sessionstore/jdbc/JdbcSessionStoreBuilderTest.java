package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.StoreFailureException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import javax.sql.DataSource;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.ds.PGSimpleDataSource;

/** The builder refuses bad settings when they are set, names the setting and the fix, and builds with defaults. */
class JdbcSessionStoreBuilderTest {

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Agents", "1agents", "agents-x", "agents.x", "\"agents\"", "agents;drop", "ägents"})
  @DisplayName("A schema name outside [a-z_][a-z0-9_]* is an invalid argument naming the setting and the allowed form")
  void schemaMustBeAnIdentifier(String name) {
    assertThatThrownBy(() -> JdbcSessionStore.builder().schema(name))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("schema"))
        .hasMessageContaining("[a-z_][a-z0-9_]*");
  }

  @Test
  @DisplayName("Schema names are bounded by PostgreSQL's 63 chars and may not start with pg_")
  void schemaBounds() {
    JdbcSessionStore.builder().schema("a".repeat(63));
    assertThatThrownBy(() -> JdbcSessionStore.builder().schema("a".repeat(64)))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("at most 63");
    assertThatThrownBy(() -> JdbcSessionStore.builder().schema("pg_agents"))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("reserved");
  }

  @Test
  @DisplayName("A table prefix is empty or an identifier of at most 24 chars")
  void prefixBounds() {
    JdbcSessionStore.builder().tablePrefix("");
    JdbcSessionStore.builder().tablePrefix("p".repeat(24));
    assertThatThrownBy(() -> JdbcSessionStore.builder().tablePrefix("p".repeat(25)))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("tablePrefix"))
        .hasMessageContaining("24");
    assertThatThrownBy(() -> JdbcSessionStore.builder().tablePrefix("Agents_"))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("tablePrefix"));
    assertThatThrownBy(() -> JdbcSessionStore.builder().tablePrefix("sqlite_"))
        .as("a prefix SQLite reserves, refused before build()")
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("tablePrefix"))
        .hasMessageContaining("reserved by SQLite");
    assertThatThrownBy(() -> JdbcSessionStore.builder().tablePrefix("sqlite_store_"))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("tablePrefix"));
    JdbcSessionStore.builder().tablePrefix("my_sqlite_");
  }

  @Test
  @DisplayName("Intervals must lie between 10 ms and 1 hour, the retry timeout between 0 and 10 minutes")
  void intervalBounds() {
    assertThatThrownBy(() -> JdbcSessionStore.builder().deadlineSweepInterval(Duration.ofMillis(9)))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("deadlineSweepInterval");
    assertThatThrownBy(() -> JdbcSessionStore.builder().waitPollInterval(Duration.ofHours(2)))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("waitPollInterval");
    assertThatThrownBy(() -> JdbcSessionStore.builder().waitPollInterval(Duration.ofSeconds(-1)))
        .isInstanceOf(InvalidArgumentException.class);
    JdbcSessionStore.builder().retryTimeout(Duration.ZERO);
    JdbcSessionStore.builder().retryTimeout(Duration.ofMinutes(10));
    assertThatThrownBy(() -> JdbcSessionStore.builder().retryTimeout(Duration.ofMillis(-1)))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("retryTimeout"));
    assertThatThrownBy(() -> JdbcSessionStore.builder().retryTimeout(Duration.ofMinutes(11)))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("retryTimeout"));
    assertThatThrownBy(() -> JdbcSessionStore.builder().keepAliveInterval(Duration.ofMillis(9)))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("keepAliveInterval"));
    assertThatThrownBy(() -> JdbcSessionStore.builder().migrationLockTimeout(Duration.ofHours(2)))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("migrationLockTimeout"));
  }

  @Test
  @DisplayName("A retention schedule's interval lies between 10 ms and 1 hour, as on every adapter")
  void retentionIntervalBounds() {
    RetentionPolicy policy = RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(30)).build();
    JdbcSessionStore.builder().retention(policy, Duration.ofMillis(10));
    JdbcSessionStore.builder().retention(policy, Duration.ofHours(1));
    for (Duration bad : List.of(Duration.ofMillis(9), Duration.ofHours(2))) {
      assertThatThrownBy(() -> JdbcSessionStore.builder().retention(policy, bad)).as("interval %s", bad)
          .isInstanceOfSatisfying(InvalidArgumentException.class,
              e -> assertThat(e.field()).isEqualTo("retentionInterval"))
          .hasMessageContaining("use between 10 ms and 1 hour");
    }
  }

  @Test
  @DisplayName("Setters refuse null with an invalid argument naming the setting")
  void settersRefuseNull() {
    JdbcSessionStore.Builder builder = JdbcSessionStore.builder();
    Map<String, ThrowingCallable> setters = Map.of(
        "dataSource", () -> builder.dataSource(null),
        "schema", () -> builder.schema(null),
        "tablePrefix", () -> builder.tablePrefix(null),
        "clock", () -> builder.clock(null),
        "deadlineSweepInterval", () -> builder.deadlineSweepInterval(null),
        "waitPollInterval", () -> builder.waitPollInterval(null),
        "retryTimeout", () -> builder.retryTimeout(null),
        "notificationDataSource", () -> builder.notificationDataSource(null),
        "keepAliveInterval", () -> builder.keepAliveInterval(null),
        "migrationLockTimeout", () -> builder.migrationLockTimeout(null));
    setters.forEach((field, call) -> assertThatThrownBy(call)
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo(field)));
  }

  @Test
  @DisplayName("Each setter may be called once")
  void settersRefuseASecondCall() {
    JdbcSessionStore.Builder builder = JdbcSessionStore.builder()
        .schema("a").tablePrefix("b_").clock(Clock.systemUTC()).createSchema(true).modelCallAudit(false)
        .deadlineSweepInterval(Duration.ofSeconds(1)).waitPollInterval(Duration.ofSeconds(1))
        .retryTimeout(Duration.ofSeconds(1)).notifications(true).keepAliveInterval(Duration.ofSeconds(1))
        .migrationLockTimeout(Duration.ofSeconds(1));
    assertSecondCall("notifications", () -> builder.notifications(true));
    assertSecondCall("keepAliveInterval", () -> builder.keepAliveInterval(Duration.ofSeconds(1)));
    assertSecondCall("migrationLockTimeout", () -> builder.migrationLockTimeout(Duration.ofSeconds(1)));
    builder.notificationDataSource(schema.pool(1));
    assertSecondCall("notificationDataSource", () -> builder.notificationDataSource(schema.pool(1)));
    assertSecondCall("schema", () -> builder.schema("a"));
    assertSecondCall("tablePrefix", () -> builder.tablePrefix("b_"));
    assertSecondCall("clock", () -> builder.clock(Clock.systemUTC()));
    assertSecondCall("createSchema", () -> builder.createSchema(true));
    assertSecondCall("modelCallAudit", () -> builder.modelCallAudit(true));
    assertSecondCall("deadlineSweepInterval", () -> builder.deadlineSweepInterval(Duration.ofSeconds(1)));
    assertSecondCall("waitPollInterval", () -> builder.waitPollInterval(Duration.ofSeconds(1)));
    assertSecondCall("retryTimeout", () -> builder.retryTimeout(Duration.ofSeconds(1)));
    builder.dataSource(schema.pool(1));
    assertSecondCall("dataSource", () -> builder.dataSource(schema.pool(1)));
    builder.jdbcUrl("jdbc:postgresql://localhost/x");
    assertSecondCall("jdbcUrl", () -> builder.jdbcUrl("jdbc:postgresql://localhost/x"));
  }

  private static void assertSecondCall(String field, org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    assertThatThrownBy(call).as("a second call of %s", field)
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo(field))
        .hasMessageContaining(field + ": was already set");
  }

  @Test
  @DisplayName("Building without a database names both ways to give one; giving both is refused")
  void databaseIsRequiredOnce() {
    assertThatThrownBy(() -> JdbcSessionStore.builder().build())
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("dataSource"))
        .hasMessageContaining("a database is required")
        .hasMessageContaining("dataSource").hasMessageContaining("jdbcUrl");
    assertThatThrownBy(() -> JdbcSessionStore.builder().dataSource(schema.pool(1))
        .jdbcUrl("jdbc:postgresql://localhost/x").build())
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("dataSource"))
        .hasMessageContaining("both dataSource and jdbcUrl");
  }

  @Test
  @DisplayName("A JDBC URL is required non-null, must start with jdbc: and name a driver on the class path; the message shows no more"
      + " than the driver's prefix")
  void jdbcUrlIsChecked() {
    assertThatThrownBy(() -> JdbcSessionStore.builder().jdbcUrl(null))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("jdbcUrl"));
    assertThatThrownBy(() -> JdbcSessionStore.builder().jdbcUrl("postgresql://localhost/x"))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("jdbcUrl"));
    assertThatThrownBy(() -> JdbcSessionStore.builder().jdbcUrl("jdbc:nosuchdb://host/db?password=secret").build())
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("jdbcUrl"))
        .hasMessageContaining("jdbc:nosuchdb:").hasMessageNotContaining("secret");
  }

  @Test
  @DisplayName("A store built from a JDBC URL works on its own pool and closes that pool when it closes")
  void jdbcUrlStoreOwnsItsPool() throws Exception {
    String application = TestDatabase.uniqueName("url_store");
    JdbcSessionStore store = JdbcSessionStore.builder()
        .jdbcUrl(TestDatabase.get().urlWithCredentials(application))
        .schema(schema.name())
        .build();
    store.events().append("s-1", NewEvent.of("message", Json.of("{}")));
    assertThat(store.events().lastSeq("s-1")).isEqualTo(1);
    assertThat(connectionsOf(application)).isPositive();

    store.close();

    assertThat(connectionsOf(application)).isZero();
  }

  private static long connectionsOf(String application) throws Exception {
    try (Connection connection = TestDatabase.get().adminDataSource().getConnection();
         PreparedStatement count = connection.prepareStatement(
             "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
      count.setString(1, application);
      try (ResultSet rows = count.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  @Test
  @DisplayName("Notification settings with notifications(false) contradict it: the build names both")
  void notificationSettingsNeedNotifications() {
    assertThatThrownBy(() -> JdbcSessionStore.builder().dataSource(schema.pool(1)).notifications(false)
        .notificationDataSource(schema.pool(1)).build())
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("notifications"))
        .hasMessageContaining("notifications(false)").hasMessageContaining("notificationDataSource");
    assertThatThrownBy(() -> JdbcSessionStore.builder().dataSource(schema.pool(1)).notifications(false)
        .keepAliveInterval(Duration.ofSeconds(1)).build())
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("notifications"))
        .hasMessageContaining("keepAliveInterval");
  }

  @Test
  @DisplayName("A store built with defaults supports every capability and has the audit off")
  void defaults() {
    SessionStore store = schema.store(builder -> builder);

    assertThat(store.capabilities()).containsExactlyInAnyOrder(Capability.values());
    assertThatThrownBy(() -> store.capabilities().remove(Capability.WAITING_READS))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(store.modelCalls().enabled()).isFalse();
  }

  @Test
  @DisplayName("A data source of a database the store does not support fails the build, naming the database")
  void unsupportedDatabaseIsNamed() {
    DataSource mysql = dataSourceOf("MySQL", "jdbc:mysql://db.example:3306/agents?user=secret&password=secret");

    assertThatThrownBy(() -> JdbcSessionStore.builder().dataSource(mysql).build())
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("dataSource"))
        .hasMessageContaining("MySQL")
        .hasMessageContaining("jdbc:mysql:")
        .hasMessageContaining("PostgreSQL")
        .hasMessageNotContaining("secret")
        .hasMessageNotContaining("db.example");
  }

  /**
   * A data source whose connections describe themselves as {@code product} at {@code url} and support nothing else:
   * enough for choosing a dialect, which must happen before any statement is sent.
   */
  private static DataSource dataSourceOf(String product, String url) {
    DatabaseMetaData metaData = proxy(DatabaseMetaData.class, (method, args) -> switch (method.getName()) {
      case "getDatabaseProductName" -> product;
      case "getURL" -> url;
      default -> throw new UnsupportedOperationException(method.getName());
    });
    Connection connection = proxy(Connection.class, (method, args) -> switch (method.getName()) {
      case "getMetaData" -> metaData;
      case "close" -> null;
      default -> throw new UnsupportedOperationException(method.getName());
    });
    return proxy(DataSource.class, (method, args) -> switch (method.getName()) {
      case "getConnection" -> connection;
      default -> throw new UnsupportedOperationException(method.getName());
    });
  }

  private static <T> T proxy(Class<T> type, BiFunction<Method, Object[], Object> answer) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (self, method, args) -> answer.apply(method, args)));
  }

  @Test
  @DisplayName("A store's toString names the adapter, database, schema and prefix, never a user or password")
  void toStringNamesTheTarget() {
    SessionStore store = schema.store(builder -> builder.tablePrefix("shown_"));

    assertThat(store.toString())
        .startsWith("JdbcSessionStore[database=jdbc:postgresql://")
        .contains("schema=" + schema.name(), "tablePrefix=shown_")
        .doesNotContain("?", "user", "password");
  }

  @Test
  @DisplayName("A missing database fails the build, not retryable, with a message that says so, with its SQLState")
  void missingDatabaseIsNamed() {
    PGSimpleDataSource missing = TestDatabase.get().adminDataSource();
    missing.setDatabaseName("no_such_database_" + ProcessHandle.current().pid());

    assertThatThrownBy(() -> JdbcSessionStore.builder().dataSource(missing).retryTimeout(Duration.ZERO).build())
        .isInstanceOf(StoreFailureException.class)
        .isNotInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining("[3D000]")
        .hasMessageContaining("database \"" + missing.getDatabaseName() + "\" does not exist")
        .satisfies(e -> assertThat(((StoreFailureException) e).isRetryable()).as("retryable").isFalse());
  }

  @Test
  @DisplayName("A closed store refuses calls with StoreClosedException; closing twice is fine")
  void closedStoreRefusesCalls() {
    SessionStore store = schema.store(builder -> builder);
    store.close();
    store.close();

    assertThatThrownBy(() -> store.events().lastSeq("s")).isInstanceOf(StoreClosedException.class);
  }
}
