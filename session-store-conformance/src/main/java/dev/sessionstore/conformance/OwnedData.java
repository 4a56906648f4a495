package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.ToolCallWrite;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Everything one session can own, written through a store: the session (with a name and, when the store supports
 * tenants, a tenant), three events, a running run, and, for each optional capability the store declares, a pending
 * tool call with a deadline, a summary, a session checkpoint and an audit row. Used to check that deletion removes
 * all of it and leaves other sessions' data whole.
 *
 * <p>Ids are derived from the session id, so two seeded sessions never share an id.
 */
final class OwnedData {

  final String sessionId;
  final String name;
  final String tenant;
  final String runId;
  final String toolCallId;
  final List<String> eventIds;
  final CheckpointKey checkpoint;

  private OwnedData(String sessionId, String tenant) {
    this.sessionId = sessionId;
    this.name = sessionId + "-name";
    this.tenant = tenant;
    this.runId = sessionId + "-run";
    this.toolCallId = sessionId + "-call";
    this.eventIds = List.of(sessionId + "-e1", sessionId + "-e2", sessionId + "-e3");
    this.checkpoint = CheckpointKey.of(sessionId, "turn-state");
  }

  /**
   * Seeds {@code sessionId} in {@code store} with everything it supports; {@code tenant} may be null and is only
   * written when the store declares {@link Capability#TENANTS}.
   */
  static OwnedData seed(SessionStore store, String sessionId, String tenant) {
    OwnedData data = new OwnedData(sessionId, store.supports(Capability.TENANTS) ? tenant : null);
    SessionWrite write = SessionWrite.of(sessionId).withName(data.name).withMetadata("owner", sessionId);
    if (data.tenant != null) {
      write = write.withTenant(data.tenant);
    }
    store.sessions().save(write);
    store.runs().save(RunWrite.of(data.runId, sessionId).withStatus(RunStatus.RUNNING));
    for (String eventId : data.eventIds) {
      store.events().append(sessionId,
          NewEvent.of("message", Json.of("{\"id\":\"" + eventId + "\"}")).withId(eventId).withRunId(data.runId));
    }
    if (store.supports(Capability.TOOL_CALLS)) {
      store.toolCalls().save(ToolCallWrite.of(data.toolCallId, sessionId, "ask_human").withRunId(data.runId));
      if (store.supports(Capability.DEADLINES)) {
        store.toolCalls().expireAfter(sessionId, data.toolCallId, Duration.ofHours(1));
      }
    }
    if (store.supports(Capability.SUMMARIES)) {
      store.summaries().put(sessionId, NewSummary.of(1, 2, Json.of("{\"summary\":\"" + sessionId + "\"}")));
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      store.checkpoints().put(data.checkpoint, sessionId.getBytes(StandardCharsets.UTF_8));
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      store.modelCalls().record(sessionId, NewModelCall.of(1, "model", Json.of("{\"turn\":1}")));
    }
    return data;
  }

  /** Asserts that everything seeded is still there, unchanged in identity. */
  void assertPresent(SessionStore store) {
    assertThat(store.sessions().find(sessionId)).as("session %s", sessionId).isPresent();
    if (tenant != null) {
      assertThat(store.sessions().find(sessionId).get().tenant()).as("tenant of session %s", sessionId)
          .isEqualTo(tenant);
    }
    assertThat(store.sessions().findByName(name)).as("session %s by its name", sessionId).isPresent();
    assertThat(Events.ids(Events.readAll(store.events(), sessionId))).as("events of session %s", sessionId)
        .isEqualTo(eventIds);
    assertThat(store.runs().find(sessionId, runId)).as("run of session %s", sessionId).isPresent();
    assertThat(store.runs().active(sessionId)).as("active run of session %s", sessionId).isPresent();
    if (store.supports(Capability.TOOL_CALLS)) {
      assertThat(store.toolCalls().find(sessionId, toolCallId)).as("tool call of session %s", sessionId).isPresent();
      assertThat(store.toolCalls().pending(sessionId)).as("pending tool calls of session %s", sessionId).hasSize(1);
    }
    if (store.supports(Capability.SUMMARIES)) {
      assertThat(store.summaries().list(sessionId)).as("summaries of session %s", sessionId).hasSize(1);
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      assertThat(store.checkpoints().get(checkpoint)).as("checkpoint of session %s", sessionId).isPresent();
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      assertThat(store.modelCalls().list(sessionId)).as("audit rows of session %s", sessionId).hasSize(1);
    }
  }

  /** Asserts that nothing seeded can be found any more, by any lookup. */
  void assertGone(SessionStore store) {
    assertThat(store.sessions().find(sessionId)).as("deleted session %s", sessionId).isEmpty();
    assertThat(store.sessions().findByName(name)).as("deleted session %s by its name", sessionId).isEmpty();
    assertThat(store.events().lastSeq(sessionId)).as("last seq of deleted session %s", sessionId).isZero();
    assertThat(store.events().read(sessionId, EventQuery.all()).items()).as("events of deleted session %s", sessionId)
        .isEmpty();
    assertThat(store.events().find(sessionId, eventIds.get(0))).as("an event of deleted session %s", sessionId)
        .isEmpty();
    assertThat(store.runs().find(sessionId, runId)).as("run of deleted session %s", sessionId).isEmpty();
    assertThat(store.runs().list(sessionId)).as("runs of deleted session %s", sessionId).isEmpty();
    assertThat(store.runs().active(sessionId)).as("active run of deleted session %s", sessionId).isEmpty();
    if (store.supports(Capability.TOOL_CALLS)) {
      assertThat(store.toolCalls().find(sessionId, toolCallId)).as("tool call of deleted session %s", sessionId).isEmpty();
      assertThat(store.toolCalls().pending(sessionId)).as("pending tool calls of deleted session %s", sessionId)
          .isEmpty();
    }
    if (store.supports(Capability.SUMMARIES)) {
      assertThat(store.summaries().list(sessionId)).as("summaries of deleted session %s", sessionId).isEmpty();
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      assertThat(store.checkpoints().get(checkpoint)).as("checkpoint of deleted session %s", sessionId).isEmpty();
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      assertThat(store.modelCalls().list(sessionId)).as("audit rows of deleted session %s", sessionId).isEmpty();
    }
  }
}
