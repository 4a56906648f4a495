package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.CheckpointKey;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Once the schema exists, the store runs under a role with nothing but {@code SELECT, INSERT, UPDATE, DELETE} on
 * its tables and {@code USAGE} on the schema: no DDL, no sequences, no ownership.
 */
class RestrictedRoleTest {

  private final TestSchema schema = new TestSchema();
  private final String role = TestDatabase.uniqueName("dml_only");
  private final String password = "dml-only-" + System.nanoTime();

  @BeforeEach
  void createSchemaAndRole() {
    schema.store(builder -> builder).close();
    TestDatabase.get().execute(
        "CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'",
        "GRANT USAGE ON SCHEMA \"" + schema.name() + "\" TO " + role,
        "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \"" + schema.name() + "\" TO " + role);
  }

  @AfterEach
  void dropSchemaAndRole() {
    schema.close();
    TestDatabase.get().execute("DROP OWNED BY " + role, "DROP ROLE " + role);
  }

  @Test
  @DisplayName("Every kind of operation works under a DML-only role with createSchema(false)")
  void everyOperationWorks() {
    SessionStore store = schema.store(TestDatabase.get().dataSourceAs(role, password),
        builder -> builder.createSchema(false).modelCallAudit(true).deadlineSweepInterval(Duration.ofMillis(50)));

    assertThat(store.commit(Step.builder("s")
        .session(SessionWrite.of("s").withName("named").withMetadata("k", "v"))
        .run(RunWrite.of("r", "s").withStatus(RunStatus.WAITING))
        .event(NewEvent.of("tool_use").withId("e1"))
        .event(NewEvent.of("draft").withId("e-draft"))
        .registerToolCall(ToolCallWrite.of("c0", "s", "approve").withRequestEventId("e1")
            .withDeadline(Instant.now().plusSeconds(600)))
        .putCheckpoint("turn-state", new byte[] {1})
        .build()).isCommitted()).isTrue();
    assertThat(store.commit(Step.builder("s")
        .resolve("c0", ToolCallStatus.COMPLETED, null)
        .event(NewEvent.of("tool_result").withId("e1-result"))
        .truncateFrom(2)
        .summary(NewSummary.of(1, 2, Json.of("{}")))
        .deleteCheckpoint("turn-state")
        .build()).isCommitted()).isTrue();
    assertThat(store.toolCalls().await("s", "c0", Duration.ZERO)).isPresent();
    assertThat(store.sessions().mergeMetadata("s", Map.of("k", "w")).metadata()).containsEntry("k", "w");
    store.events().appendAll("s", List.of(NewEvent.of("tool_result").withId("e1-result")), 2);
    store.summaries().put("s", NewSummary.of(1, 2, Json.of("{\"text\":\"so far\"}")));
    Session fork = store.sessions().fork("s", 2);
    store.checkpoints().put(CheckpointKey.of("s", "turn"), new byte[] {7});
    store.modelCalls().record("s", NewModelCall.of(1, "model", Json.of("[]")));
    store.toolCalls().save(ToolCallWrite.of("c1", "s", "approve"));
    store.toolCalls().expireAt("s", "c1", Instant.now().minusSeconds(1));
    store.toolCalls().save(ToolCallWrite.of("c2", "s", "approve"));
    EventPage awaited = store.events().await("s", EventQuery.all().after(2), Duration.ofMillis(10));

    assertThat(store.events().read(fork.id(), EventQuery.all()).items()).hasSize(2);
    assertThat(store.summaries().revive("s").events()).isEmpty();
    assertThat(store.toolCalls().resolve("s", "c2", ToolCallStatus.COMPLETED, null).won()).isTrue();
    assertThat(store.toolCalls().find("s", "c1").orElseThrow().status()).isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(store.events().truncate("s", 2)).isEqualTo(1);
    assertThat(awaited.items()).isEmpty();
    assertThat(store.modelCalls().deleteOlderThan(Duration.ZERO)).isEqualTo(1);
    assertThat(store.sessions().delete("s")).isTrue();
  }
}
