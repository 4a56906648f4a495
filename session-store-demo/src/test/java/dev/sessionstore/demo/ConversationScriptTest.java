package dev.sessionstore.demo;

import static dev.sessionstore.demo.ConversationScript.FORK_ID;
import static dev.sessionstore.demo.ConversationScript.SESSION_ID;
import static dev.sessionstore.demo.ConversationScript.TOOL_CALL_ID;
import static dev.sessionstore.demo.ConversationScript.TURN_STATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.Revival;
import dev.sessionstore.RunStatus;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.memory.InMemorySessionStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Runs the demo's conversation once on a fresh in-memory store and checks what it left in the store and printed. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConversationScriptTest {

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private SessionStore store;
  private DemoOutcome outcome;

  @BeforeAll
  void runScript() throws InterruptedException {
    store = InMemorySessionStore.builder().build();
    PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
    outcome = new ConversationScript(store, new TranscriptPrinter(out)).run();
  }

  @AfterAll
  void closeStore() {
    store.close();
  }

  @Test
  void theLogIsGaplessAndTheReplayedBatchStoredNothing() {
    List<Event> log = store.events().read(SESSION_ID, EventQuery.all()).items();

    assertThat(log).extracting(Event::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    assertThat(log).extracting(Event::id)
        .containsExactly("ev-01", "ev-02", "ev-03", "ev-04", "ev-05", "ev-06", "ev-07", "ev-08");
    assertThat(log.get(2).agentId()).isEqualTo("researcher");
    assertThat(log.get(2).parentId()).isEqualTo("ev-02");
    assertThat(output()).contains("returned seqs [1, 2], stored nothing new", "actual seq 2, nothing stored");
  }

  @Test
  void theFirstResolveWinsAndTheLateOneIsStale() {
    assertThat(outcome.firstResolve()).isInstanceOf(Resolution.Resolved.class);
    assertThat(outcome.lateResolve()).isInstanceOfSatisfying(Resolution.Stale.class, stale ->
        assertThat(stale.current()).map(ToolCall::status).contains(ToolCallStatus.COMPLETED));

    ToolCall stored = store.toolCalls().find(SESSION_ID, TOOL_CALL_ID).orElseThrow();
    assertThat(stored.status()).isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(stored.result()).isEqualTo(Json.of("{\"high_c\": 24, \"forecast\": \"sunny\"}"));
    assertThat(store.toolCalls().pending(SESSION_ID)).isEmpty();
    assertThat(stored.requestEventId()).isEqualTo("ev-03");
    assertThat(store.events().find(SESSION_ID, "ev-04-late")).as("the rejected step's event").isEmpty();
    assertThat(output()).contains("Resolved -> COMPLETED", "Stale (call is COMPLETED");
  }

  @Test
  void theFirstRunCompletedAndTheSecondIsActive() {
    assertThat(store.runs().find(SESSION_ID, "run-1")).map(run -> run.status()).contains(RunStatus.COMPLETED);
    assertThat(store.runs().active(SESSION_ID)).map(run -> run.id()).contains("run-2");
  }

  @Test
  void revivalReturnsTheSummaryAndTheEventsAfterIt() {
    Revival revival = store.summaries().revive(SESSION_ID);

    assertThat(revival.summary()).hasValueSatisfying(summary -> assertThat(summary.toSeq()).isEqualTo(5));
    assertThat(revival.events()).extracting(Event::seq).containsExactly(6L, 7L, 8L);
    assertThat(store.summaries().chapter(SESSION_ID, 5)).hasValueSatisfying(chapter ->
        assertThat(chapter.events()).extracting(Event::seq).containsExactly(1L, 2L, 3L, 4L, 5L));
  }

  @Test
  void theForkSharesTheFirstFiveEventsThenDiverges() {
    List<Event> parent = store.events().read(SESSION_ID, EventQuery.all()).items();
    List<Event> fork = store.events().read(FORK_ID, EventQuery.all()).items();

    assertThat(store.sessions().find(FORK_ID).orElseThrow().forkOrigin())
        .contains(new ForkOrigin(SESSION_ID, 5));
    assertThat(fork.subList(0, 5)).extracting(Event::sessionId).containsOnly(FORK_ID);
    assertThat(fork.subList(0, 5)).extracting(Event::id, Event::seq, Event::payload, Event::timestamp)
        .containsExactlyElementsOf(parent.subList(0, 5).stream()
            .map(event -> tuple(event.id(), event.seq(), event.payload(), event.timestamp())).toList());
    assertThat(fork).extracting(Event::id).endsWith("rain-06b");
    assertThat(parent.get(5).id()).isEqualTo("ev-06");
  }

  @Test
  void editingTheForkReplacedTheCutMessageAtTheSameSeq() {
    List<Event> fork = store.events().read(FORK_ID, EventQuery.all()).items();

    assertThat(fork).extracting(Event::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    assertThat(fork.get(5).payload()).isEqualTo(Json.of("{\"text\": \"What if it rains all weekend?\"}"));
    assertThat(store.events().find(FORK_ID, "rain-07")).isEmpty();
  }

  @Test
  void theTurnStateRoundTrips() {
    byte[] loaded = store.checkpoints().get(CheckpointKey.of(SESSION_ID, TURN_STATE)).orElseThrow().data();

    assertThat(new String(loaded, StandardCharsets.UTF_8)).contains("\"phase\": \"awaiting_user\"");
  }

  @Test
  void theWaitingReaderWokeOnTheAppendBeforeItsTimeout() {
    WaitingRead.WakeUp wakeUp = outcome.wakeUp();

    assertThat(wakeUp.afterSeq()).isEqualTo(7);
    assertThat(wakeUp.page().items()).extracting(Event::id).containsExactly("ev-08");
    assertThat(wakeUp.waited()).isLessThan(Duration.ofSeconds(5));
    assertThat(output()).contains("reader woke after");
  }

  private String output() {
    return printed.toString(StandardCharsets.UTF_8);
  }
}
