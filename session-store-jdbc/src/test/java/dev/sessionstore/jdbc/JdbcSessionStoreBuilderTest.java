package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
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
        "retryTimeout", () -> builder.retryTimeout(null));
    setters.forEach((field, call) -> assertThatThrownBy(call)
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo(field)));
  }

  @Test
  @DisplayName("Each setter may be called once")
  void settersRefuseASecondCall() {
    JdbcSessionStore.Builder builder = JdbcSessionStore.builder()
        .schema("a").tablePrefix("b_").clock(Clock.systemUTC()).createSchema(true).modelCallAudit(false)
        .deadlineSweepInterval(Duration.ofSeconds(1)).waitPollInterval(Duration.ofSeconds(1))
        .retryTimeout(Duration.ofSeconds(1));
    assertThatThrownBy(() -> builder.schema("a")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("schema was already set");
    assertThatThrownBy(() -> builder.tablePrefix("b_")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> builder.clock(Clock.systemUTC())).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> builder.createSchema(true)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> builder.modelCallAudit(true)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> builder.deadlineSweepInterval(Duration.ofSeconds(1)))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> builder.waitPollInterval(Duration.ofSeconds(1)))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> builder.retryTimeout(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class);
    builder.dataSource(schema.pool(1));
    assertThatThrownBy(() -> builder.dataSource(schema.pool(1))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  @DisplayName("Building without a data source names the missing setting")
  void dataSourceIsRequired() {
    assertThatThrownBy(() -> JdbcSessionStore.builder().build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("dataSource is required");
  }

  @Test
  @DisplayName("A store built with defaults supports every capability and has the audit off")
  void defaults() {
    SessionStore store = schema.store(builder -> builder);

    assertThat(store.capabilities()).containsExactlyInAnyOrder(Capability.values());
    assertThat(store.modelCalls().enabled()).isFalse();
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
  @DisplayName("A missing database fails the build with a message that says so, with its SQLState")
  void missingDatabaseIsNamed() {
    PGSimpleDataSource missing = TestDatabase.get().adminDataSource();
    missing.setDatabaseName("no_such_database_" + ProcessHandle.current().pid());

    assertThatThrownBy(() -> JdbcSessionStore.builder().dataSource(missing).retryTimeout(Duration.ZERO).build())
        .isInstanceOf(StoreFailureException.class)
        .isNotInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining("[3D000]")
        .hasMessageContaining("database \"" + missing.getDatabaseName() + "\" does not exist");
  }

  @Test
  @DisplayName("A closed store refuses calls with IllegalStateException; closing twice is fine")
  void closedStoreRefusesCalls() {
    SessionStore store = schema.store(builder -> builder);
    store.close();
    store.close();

    assertThatThrownBy(() -> store.events().latestSeq("s")).isInstanceOf(IllegalStateException.class);
  }
}
