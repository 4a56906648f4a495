package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.CheckpointKey;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.ToolCallWrite;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Stores with different table prefixes in one schema, or different schemas, never see each other's data. */
class SchemaIsolationTest {

  private final TestSchema schema = new TestSchema();
  private final TestSchema otherSchema = new TestSchema();

  @AfterEach
  void dropSchemas() {
    schema.close();
    otherSchema.close();
  }

  @Test
  @DisplayName("Two prefixes in one schema keep separate sessions, logs, tool calls and checkpoints")
  void prefixesIsolate() {
    SessionStore alpha = schema.store(builder -> builder.tablePrefix("alpha_"));
    SessionStore beta = schema.store(builder -> builder.tablePrefix("beta_"));

    assertIsolated(alpha, beta);
  }

  @Test
  @DisplayName("The same prefix in two schemas keeps separate data")
  void schemasIsolate() {
    SessionStore first = schema.store(builder -> builder);
    SessionStore second = otherSchema.store(builder -> builder);

    assertIsolated(first, second);
  }

  @Test
  @DisplayName("An empty prefix names the tables after the schema alone")
  void emptyPrefix() {
    SessionStore store = schema.store(builder -> builder.tablePrefix(""));
    store.events().append("s", NewEvent.of("message"));

    assertThat(schema.queryValue("SELECT count(*) FROM \"" + schema.name() + "\".events")).isEqualTo(1L);
  }

  private static void assertIsolated(SessionStore one, SessionStore other) {
    one.sessions().save(SessionWrite.of("same-id").withName("same-name"));
    one.events().append("same-id", NewEvent.of("message").withId("e1"));
    one.toolCalls().save(ToolCallWrite.of("call", "same-id", "tool"));
    one.toolCalls().expireAt("same-id", "call", Instant.now().minus(Duration.ofMinutes(1)));
    one.checkpoints().put(CheckpointKey.global("runner"), new byte[] {1});

    assertThat(other.sessions().find("same-id")).isEmpty();
    assertThat(other.sessions().findByName("same-name")).isEmpty();
    assertThat(other.sessions().list(SessionQuery.all()).items()).isEmpty();
    assertThat(other.events().read("same-id", EventQuery.all()).items()).isEmpty();
    assertThat(other.toolCalls().find("same-id", "call")).isEmpty();
    assertThat(other.checkpoints().get(CheckpointKey.global("runner"))).isEmpty();

    other.sessions().save(SessionWrite.of("same-id").withName("same-name"));
    assertThat(other.events().append("same-id", NewEvent.of("message").withId("e1")).seq())
        .as("seq of the first event in the other store").isEqualTo(1);
    assertThat(one.events().lastSeq("same-id")).isEqualTo(1);
  }
}
