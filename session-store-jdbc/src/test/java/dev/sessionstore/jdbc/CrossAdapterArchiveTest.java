package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Session;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.conformance.TestClock;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Moving sessions between adapters: what the in-memory store exports, PostgreSQL imports and exports identically,
 * and the in-memory store takes back identically again; logs longer than one batch are stored in several.
 */
class CrossAdapterArchiveTest {

  private final TestSchema schema = new TestSchema();
  private final TestSchema otherSchema = new TestSchema();
  private final TestClock clock = new TestClock();
  private final List<SessionStore> stores = new ArrayList<>();

  @AfterEach
  void close() {
    stores.forEach(SessionStore::close);
    schema.close();
    otherSchema.close();
  }

  private SessionStore memory() {
    SessionStore store = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    stores.add(store);
    return store;
  }

  private SessionStore postgres(TestSchema in) {
    return in.store(builder -> builder.clock(clock).modelCallAudit(true));
  }

  /** Every session of {@code from} exported, and every global checkpoint, imported into {@code to}. */
  private static void move(SessionStore from, SessionStore to) {
    for (Session session : from.sessions().list(SessionQuery.all()).items()) {
      SessionArchive archive = from.archives().export(session.id()).orElseThrow();
      assertThat(to.archives().importSession(archive)).as("import of %s", session.id())
          .isEqualTo(ImportOutcome.IMPORTED);
    }
    for (Checkpoint checkpoint : from.archives().globalCheckpoints()) {
      assertThat(to.archives().importGlobalCheckpoint(checkpoint)).isEqualTo(ImportOutcome.IMPORTED);
    }
  }

  /** Every session's export and every global checkpoint of {@code store}. */
  private static List<Object> everything(SessionStore store) {
    List<Object> all = new ArrayList<>();
    for (Session session : store.sessions().list(SessionQuery.all()).items()) {
      all.add(store.archives().export(session.id()).orElseThrow());
    }
    all.addAll(store.archives().globalCheckpoints());
    return all;
  }

  private void tick() {
    clock.advance(Duration.ofMillis(1234).plusNanos(567_000));
  }

  /** A named session with a log past one batch, runs, tool calls of every kind, a summary, turn state and audit. */
  private void fill(SessionStore store) {
    store.sessions().save(SessionWrite.of("s-1").withName("support").withTenant("acme").withAgentId("bot")
        .withSettings(Json.of("{ \"model\" : \"m\", \"big\": 123456789012345678901234567890.000 }"))
        .withMetadata(Map.of("customer", "c-1", "lang", "日本語")));
    tick();
    List<NewEvent> batch = new ArrayList<>();
    for (int i = 1; i <= Limits.MAX_BATCH_SIZE + 2345; i++) {
      batch.add(NewEvent.of(i % 3 == 0 ? "tool_use" : "message",
              Json.of("{\"i\":" + i + ",  \"text\":\"é\\u00e9 \uD83D\uDE00 " + i + "\"}"))
          .withId("e-" + i).withRunId("run-" + (i % 4)).withAgentId(i % 2 == 0 ? "a" : null)
          .withParentId(i > 1 ? "e-" + (i - 1) : null));
      if (batch.size() == Limits.MAX_BATCH_SIZE) {
        store.events().appendAll("s-1", batch);
        batch.clear();
        tick();
      }
    }
    store.events().appendAll("s-1", batch);
    for (int run = 0; run < 4; run++) {
      store.runs().save(RunWrite.of("run-" + run, "s-1").withStatus(RunStatus.values()[run + 1])
          .withUsage(Json.of("{\"tokens\":" + run + "}")));
    }
    store.toolCalls().save(ToolCallWrite.of("c-done", "s-1", "search").withRequestEventId("e-3"));
    store.toolCalls().save(ToolCallWrite.of("c-pending", "s-1", "approve").withRequestEventId("e-6")
        .withDeadline(clock.instant().plus(Duration.ofHours(2))));
    store.toolCalls().save(ToolCallWrite.of("c-expired", "s-1", "approve")
        .withDeadline(clock.instant().plusSeconds(1)));
    tick();
    store.toolCalls().resolve("s-1", "c-done", ToolCallStatus.FAILED, Json.of("{\"error\":\"none found\"}"));
    store.summaries().put("s-1", NewSummary.of(1, 5000, Json.of("{\"gist\":\"long\"}")));
    store.checkpoints().put(CheckpointKey.of("s-1", "turn-state"), new byte[] {0, 1, 2, 3});
    store.checkpoints().put(CheckpointKey.global("runner"), new byte[] {42});
    store.modelCalls().record("s-1", NewModelCall.of(1, "m", Json.of("[{\"role\":\"user\"}]")));
    tick();
    store.sessions().fork("s-1", 7, "s-fork");
    store.events().append("s-fork", NewEvent.of("message").withId("f-8"));
    tick();
    store.events().append("s-2", NewEvent.of("message").withId("only"));
  }

  @Test
  @DisplayName("memory -> PostgreSQL -> memory: every export and global checkpoint identical at each hop")
  void memoryToPostgresAndBack() {
    SessionStore source = memory();
    fill(source);
    List<Object> original = everything(source);
    SessionStore postgres = postgres(schema);

    move(source, postgres);
    assertThat(everything(postgres)).as("what PostgreSQL exports").isEqualTo(original);

    SessionStore back = memory();
    move(postgres, back);
    assertThat(everything(back)).as("what the in-memory store exports after the round trip").isEqualTo(original);
    assertThat(back.events().read("s-1", EventQuery.all().last(3)).items())
        .isEqualTo(source.events().read("s-1", EventQuery.all().last(3)).items());
  }

  @Test
  @DisplayName("PostgreSQL -> PostgreSQL: identical, and importing again is UNCHANGED for every session")
  void postgresToPostgres() {
    SessionStore source = postgres(schema);
    fill(source);
    SessionStore target = postgres(otherSchema);

    move(source, target);

    assertThat(everything(target)).isEqualTo(everything(source));
    for (Session session : source.sessions().list(SessionQuery.all()).items()) {
      assertThat(target.archives().importSession(source.archives().export(session.id()).orElseThrow()))
          .as("second import of %s", session.id()).isEqualTo(ImportOutcome.UNCHANGED);
    }
  }

  @Test
  @DisplayName("A log whose payloads pass one batch's char budget is imported in several statements, whole")
  void aLogPastOneBatchOfCharsIsImportedWhole() {
    SessionStore source = memory();
    String text = "x".repeat(Limits.MAX_JSON_LENGTH - 64);
    int events = 17;
    for (int i = 1; i <= events; i++) {
      source.events().append("big", NewEvent.of("blob", Json.from(Map.of("text", text, "i", i))).withId("b-" + i));
    }
    SessionArchive archive = source.archives().export("big").orElseThrow();
    SessionStore postgres = postgres(schema);

    assertThat(postgres.archives().importSession(archive)).isEqualTo(ImportOutcome.IMPORTED);

    List<Event> log = postgres.events().read("big", EventQuery.all()).items();
    assertThat(log).hasSize(events);
    assertThat(log).isEqualTo(archive.events());
    assertThat(postgres.events().append("big", NewEvent.of("after")).seq()).isEqualTo(events + 1);
  }
}
