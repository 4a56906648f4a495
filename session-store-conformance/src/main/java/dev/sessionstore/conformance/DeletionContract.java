package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Resolution;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Deletion (guarantee 14 of docs/guarantees.md): deleting a session removes everything it owns (events, runs, tool
 * calls and their deadlines, summaries, session checkpoints, audit rows), frees its ids and name for reuse, leaves
 * other sessions and global checkpoints alone, and is idempotent. Every store must pass this group; the cases that
 * touch an optional aggregate run only when the store declares its capability.
 *
 * <p>If this fails, check that delete covers every table or map keyed by the session, including indexes on the
 * side (tool call id to session, run id to session, name to session, event id for idempotency, the deadline
 * schedule), in one transaction; that a deadline sweep or timer that fires after the delete does not write the call
 * back; and that re-creating a session under a deleted id starts from a clean state (seq counter at 0).
 */
public abstract class DeletionContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected DeletionContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("delete returns true and the session is gone from find, findByName and listing")
  void deleteRemovesTheSession() {
    OwnedData data = OwnedData.seed(store, id("session"), null);

    assertThat(store.sessions().delete(data.sessionId)).as("delete of an existing session").isTrue();

    assertThat(store.sessions().find(data.sessionId)).isEmpty();
    assertThat(store.sessions().findByName(data.name)).isEmpty();
    assertThat(store.sessions().list(SessionQuery.all()).items()).extracting(Session::id)
        .doesNotContain(data.sessionId);
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("Deleting a session removes its events: last seq 0, reads and lookups empty")
  void deleteRemovesEvents() {
    OwnedData data = OwnedData.seed(store, id("session"), null);

    store.sessions().delete(data.sessionId);

    assertThat(store.events().lastSeq(data.sessionId)).as("last seq of a deleted session").isZero();
    assertThat(store.events().read(data.sessionId, EventQuery.all()).items()).as("events of a deleted session")
        .isEmpty();
    assertThat(store.events().read(data.sessionId, EventQuery.all().last(5)).items()).isEmpty();
    for (String eventId : data.eventIds) {
      assertThat(store.events().find(data.sessionId, eventId)).as("event %s of a deleted session", eventId).isEmpty();
    }
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("Deleting a session removes its runs: find, list and active are empty")
  void deleteRemovesRuns() {
    OwnedData data = OwnedData.seed(store, id("session"), null);

    store.sessions().delete(data.sessionId);

    assertThat(store.runs().find(data.sessionId, data.runId)).as("run of a deleted session").isEmpty();
    assertThat(store.runs().list(data.sessionId)).isEmpty();
    assertThat(store.runs().active(data.sessionId)).isEmpty();
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("Deleting a session removes its tool calls: find is empty, nothing pending, a resolve is stale")
  void deleteRemovesToolCalls() {
    assumeDeclared(Capability.TOOL_CALLS);
    String session = id("session");
    OwnedData data = OwnedData.seed(store, session, null);
    String resolved = id("resolved-call");
    store.toolCalls().save(ToolCallWrite.of(resolved, session, "fetch"));
    store.toolCalls().resolve(session, resolved, ToolCallStatus.COMPLETED, Json.of("{\"ok\":true}"));

    store.sessions().delete(session);

    assertThat(store.toolCalls().find(session, data.toolCallId)).as("pending tool call of a deleted session").isEmpty();
    assertThat(store.toolCalls().find(session, resolved)).as("resolved tool call of a deleted session").isEmpty();
    assertThat(store.toolCalls().pending(session)).as("pending tool calls of a deleted session").isEmpty();
    assertThat(store.toolCalls().resolve(session, data.toolCallId, ToolCallStatus.COMPLETED, null))
        .as("resolving a tool call of a deleted session")
        .isEqualTo(new Resolution.Stale(data.toolCallId, Optional.empty()));
    assertThat(store.sessions().find(session)).as("the deleted session after resolving its call").isEmpty();
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("Deleting a session removes its summaries: list, latest, revival and chapters are empty")
  void deleteRemovesSummaries() {
    assumeDeclared(Capability.SUMMARIES);
    OwnedData data = OwnedData.seed(store, id("session"), null);

    store.sessions().delete(data.sessionId);

    assertThat(store.summaries().list(data.sessionId)).as("summaries of a deleted session").isEmpty();
    assertThat(store.summaries().latest(data.sessionId)).isEmpty();
    assertThat(store.summaries().chapter(data.sessionId, 2)).isEmpty();
    assertThat(store.summaries().revive(data.sessionId).summary()).isEmpty();
    assertThat(store.summaries().revive(data.sessionId).events()).isEmpty();
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("Deleting a session removes its checkpoints; global checkpoints survive")
  void deleteRemovesSessionCheckpointsButNotGlobalOnes() {
    assumeDeclared(Capability.CHECKPOINTS);
    OwnedData data = OwnedData.seed(store, id("session"), null);
    CheckpointKey global = CheckpointKey.global("turn-state");
    store.checkpoints().put(global, "runner".getBytes(StandardCharsets.UTF_8));

    store.sessions().delete(data.sessionId);

    assertThat(store.checkpoints().get(data.checkpoint)).as("checkpoint of a deleted session").isEmpty();
    assertThat(store.checkpoints().get(global)).as("global checkpoint after deleting a session").isPresent();
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("Deleting a session removes its model-call audit rows")
  void deleteRemovesAuditRows() {
    assumeDeclared(Capability.MODEL_CALL_AUDIT);
    OwnedData data = OwnedData.seed(store, id("session"), null);

    store.sessions().delete(data.sessionId);

    assertThat(store.modelCalls().list(data.sessionId)).as("audit rows of a deleted session").isEmpty();
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("After a delete, no lookup of any aggregate finds anything the session owned")
  void deleteRemovesEverythingItOwns() {
    OwnedData data = OwnedData.seed(store, id("session"), "tenant-a");

    store.sessions().delete(data.sessionId);

    data.assertGone(store);
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("Deleting one session leaves every other session and everything it owns")
  void deleteLeavesOtherSessionsAlone() {
    OwnedData doomed = OwnedData.seed(store, id("session"), "tenant-a");
    OwnedData sibling = OwnedData.seed(store, id("session"), "tenant-a");
    OwnedData stranger = OwnedData.seed(store, id("session"), null);

    store.sessions().delete(doomed.sessionId);

    sibling.assertPresent(store);
    stranger.assertPresent(store);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Deleting twice is fine: the second delete returns false, as does deleting an unknown session")
  void deletingTwiceIsFine() {
    OwnedData data = OwnedData.seed(store, id("session"), null);

    assertThat(store.sessions().delete(data.sessionId)).as("first delete").isTrue();
    assertThat(store.sessions().delete(data.sessionId)).as("second delete").isFalse();
    assertThat(store.sessions().delete("no-such-session")).as("delete of an unknown session").isFalse();

    data.assertGone(store);
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("A session re-created under a deleted id starts at seq 1 with defaults and none of the old data")
  void aDeletedIdStartsOver() {
    String session = id("session");
    store.sessions().save(SessionWrite.of(session).withStatus(SessionStatus.COMPLETED)
        .withSettings(Json.of("{\"model\":\"old\"}")).withMetadata("old", "yes"));
    OwnedData old = OwnedData.seed(store, session, null);
    store.sessions().delete(session);

    NewEvent reused = NewEvent.of("message", Json.of("{\"new\":true}")).withId(old.eventIds.get(1));
    Event first = store.events().append(session, reused);

    assertThat(first.seq()).as("seq of the first event of a re-created session").isEqualTo(1);
    assertThat(Events.readAll(store.events(), session)).containsExactly(first);
    Session recreated = present(store.sessions().find(session), "re-created session");
    assertThat(recreated.status()).isEqualTo(SessionStatus.ACTIVE);
    assertThat(recreated.settings()).isEqualTo(Json.emptyObject());
    assertThat(recreated.metadata()).as("metadata of a re-created session").isEmpty();
    assertThat(recreated.name()).isNull();
    assertThat(store.runs().list(session)).as("runs of a re-created session").isEmpty();
    if (store.supports(Capability.TOOL_CALLS)) {
      assertThat(store.toolCalls().pending(session)).as("tool calls of a re-created session").isEmpty();
    }
    if (store.supports(Capability.SUMMARIES)) {
      assertThat(store.summaries().list(session)).as("summaries of a re-created session").isEmpty();
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      assertThat(store.checkpoints().get(old.checkpoint)).as("checkpoint of a re-created session").isEmpty();
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      assertThat(store.modelCalls().list(session)).as("audit rows of a re-created session").isEmpty();
    }
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("A deleted session's name can be used again by another session, and its run and call ids are gone")
  void aDeletedSessionsIdsAndNameAreFree() {
    OwnedData data = OwnedData.seed(store, id("session"), null);
    String heir = id("heir");
    store.sessions().delete(data.sessionId);

    Session named = store.sessions().save(SessionWrite.of(heir).withName(data.name));
    store.runs().save(RunWrite.of(data.runId, heir));

    assertThat(named.name()).isEqualTo(data.name);
    assertThat(present(store.runs().find(heir, data.runId), "run %s", data.runId).sessionId()).isEqualTo(heir);
    assertThat(store.runs().find(data.sessionId, data.runId)).as("run of the deleted session").isEmpty();
    if (store.supports(Capability.TOOL_CALLS)) {
      ToolCall call = store.toolCalls().save(ToolCallWrite.of(data.toolCallId, heir, "fetch"));
      assertThat(call.sessionId()).isEqualTo(heir);
      assertThat(call.status()).isEqualTo(ToolCallStatus.PENDING);
    }
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A pending deadline of a deleted call never brings the call or its session back")
  void aDeadlineOfADeletedCallResurrectsNothing() {
    assumeDeclared(Capability.TOOL_CALLS);
    assumeDeclared(Capability.DEADLINES);
    String session = id("session");
    String call = id("call");
    store.toolCalls().save(ToolCallWrite.of(call, session, "ask_human"));
    store.toolCalls().expireAfter(session, call, Duration.ofSeconds(30));

    store.sessions().delete(session);
    clock.advance(Duration.ofMinutes(5));

    assertThat(store.toolCalls().find(session, call)).as("deleted call after its deadline passed").isEmpty();
    assertThat(store.toolCalls().pending(session)).isEmpty();
    assertThat(store.sessions().find(session)).as("deleted session after its call's deadline passed").isEmpty();
    assertThat(store.sessions().list(SessionQuery.all()).items()).isEmpty();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A call re-registered under a deleted session id does not inherit the old call's deadline")
  void aReRegisteredCallDoesNotInheritTheOldDeadline() {
    assumeDeclared(Capability.TOOL_CALLS);
    assumeDeclared(Capability.DEADLINES);
    String session = id("session");
    String call = id("call");
    store.toolCalls().save(ToolCallWrite.of(call, session, "ask_human"));
    store.toolCalls().expireAfter(session, call, Duration.ofSeconds(30));
    store.sessions().delete(session);

    ToolCall again = store.toolCalls().save(ToolCallWrite.of(call, session, "ask_human"));
    clock.advance(Duration.ofMinutes(5));

    assertThat(again.deadline()).as("deadline of a re-registered call").isNull();
    ToolCall later = present(store.toolCalls().find(session, call), "re-registered call");
    assertThat(later.status()).as("status of a re-registered call after the old deadline")
        .isEqualTo(ToolCallStatus.PENDING);
    assertThat(store.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, null).won()).isTrue();
  }

  @Test
  @Tag("guarantee-14")
  @DisplayName("A deleted session is no longer listed as resumable")
  void aDeletedSessionIsNotResumable() {
    String session = id("session");
    String kept = id("session");
    Json eager = Json.of("{\"resume_policy\":\"eager\"}");
    store.sessions().save(SessionWrite.of(session).withSettings(eager));
    store.sessions().save(SessionWrite.of(kept).withSettings(eager));

    store.sessions().delete(session);

    assertThat(store.sessions().listResumable()).containsExactly(kept);
  }
}
