package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.SessionStore;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The builder refuses bad settings when they are set, names the setting and the fix, and builds with defaults. */
class JdbcSessionStoreBuilderTest {

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Agents", "1agents", "agents-x", "agents.x", "\"agents\"", "agents;drop", "ägents"})
  @DisplayName("A schema name outside [a-z_][a-z0-9_]* is refused, naming the setting and the allowed form")
  void schemaMustBeAnIdentifier(String name) {
    assertThatThrownBy(() -> JdbcSessionStore.builder().schema(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("schema")
        .hasMessageContaining("[a-z_][a-z0-9_]*");
  }

  @Test
  @DisplayName("Schema names are bounded by PostgreSQL's 63 chars and may not start with pg_")
  void schemaBounds() {
    JdbcSessionStore.builder().schema("a".repeat(63));
    assertThatThrownBy(() -> JdbcSessionStore.builder().schema("a".repeat(64)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 63");
    assertThatThrownBy(() -> JdbcSessionStore.builder().schema("pg_agents"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
  }

  @Test
  @DisplayName("A table prefix is empty or an identifier of at most 24 chars")
  void prefixBounds() {
    JdbcSessionStore.builder().tablePrefix("");
    JdbcSessionStore.builder().tablePrefix("p".repeat(24));
    assertThatThrownBy(() -> JdbcSessionStore.builder().tablePrefix("p".repeat(25)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tablePrefix").hasMessageContaining("24");
    assertThatThrownBy(() -> JdbcSessionStore.builder().tablePrefix("Agents_"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tablePrefix");
  }

  @Test
  @DisplayName("Intervals must lie between 10 ms and 1 hour")
  void intervalBounds() {
    assertThatThrownBy(() -> JdbcSessionStore.builder().deadlineSweepInterval(Duration.ofMillis(9)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deadlineSweepInterval");
    assertThatThrownBy(() -> JdbcSessionStore.builder().waitPollInterval(Duration.ofHours(2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("waitPollInterval");
    assertThatThrownBy(() -> JdbcSessionStore.builder().waitPollInterval(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("Setters refuse null")
  void settersRefuseNull() {
    JdbcSessionStore.Builder builder = JdbcSessionStore.builder();
    assertThatThrownBy(() -> builder.dataSource(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("dataSource");
    assertThatThrownBy(() -> builder.schema(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> builder.tablePrefix(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> builder.clock(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> builder.deadlineSweepInterval(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> builder.waitPollInterval(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  @DisplayName("Each setter may be called once")
  void settersRefuseASecondCall() {
    JdbcSessionStore.Builder builder = JdbcSessionStore.builder()
        .schema("a").tablePrefix("b_").clock(Clock.systemUTC()).createSchema(true).modelCallAudit(false)
        .deadlineSweepInterval(Duration.ofSeconds(1)).waitPollInterval(Duration.ofSeconds(1));
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
  @DisplayName("A closed store refuses calls with IllegalStateException; closing twice is fine")
  void closedStoreRefusesCalls() {
    SessionStore store = schema.store(builder -> builder);
    store.close();
    store.close();

    assertThatThrownBy(() -> store.events().latestSeq("s")).isInstanceOf(IllegalStateException.class);
  }
}
