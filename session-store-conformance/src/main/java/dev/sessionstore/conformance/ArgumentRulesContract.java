package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Limits;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Argument rules of the operations beyond the core log, sessions and runs (guarantee 15 of docs/guarantees.md):
 * metadata merges, session cursors, fork and cut seqs, and every operation of tool calls, summaries, checkpoints and
 * the model-call audit the store declares. Each bad id (null, empty, blank, one char over {@link
 * Limits#MAX_KEY_LENGTH}, U+0000, an unpaired surrogate), null argument and out-of-range value is rejected with an
 * {@link dev.sessionstore.InvalidArgumentException} naming the parameter; the store's data is unchanged and it keeps
 * serving.
 *
 * <p>If this fails, check: that the store is built behind {@code dev.sessionstore.spi.ValidatingSessionStore}, which
 * applies these rules to every operation before the adapter runs; or, for a store that checks by itself, that each
 * operation uses {@code dev.sessionstore.spi.Arguments} with the parameter's name before any read or write.
 */
public abstract class ArgumentRulesContract extends Contract {

  private static final String SEED = "seed";
  private static final String CALL = "call-seed";

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected ArgumentRulesContract(SessionStoreConformance kit) {
    super(kit);
  }

  /** A bad key and what is wrong with it. */
  private record BadKey(String kind, String value) {
  }

  private static final List<BadKey> BAD_KEYS = List.of(
      new BadKey("a null id", null),
      new BadKey("an empty id", ""),
      new BadKey("a blank id", " \t "),
      new BadKey("an id of MAX_KEY_LENGTH + 1 chars", "x".repeat(Limits.MAX_KEY_LENGTH + 1)),
      new BadKey("an id containing U+0000", "seed\u0000"),
      new BadKey("an id with an unpaired surrogate", "seed\uD800"));

  /** One id-taking operation: what to call with the bad id, and the parameter name the error must give. */
  private record IdCall(String method, String field, Consumer<String> call) {
  }

  /** Seeds a session with events, a run and whatever else the store's capabilities hold, to compare against. */
  @BeforeEach
  final void seedData() {
    store.sessions().save(SessionWrite.of(SEED).withMetadata("k", "v"));
    store.events().appendAll(SEED, List.of(event("e-1"), event("e-2"), event("e-3")));
    store.runs().save(RunWrite.of("run-seed", SEED).withStatus(RunStatus.RUNNING));
    if (store.supports(Capability.TOOL_CALLS)) {
      store.toolCalls().save(ToolCallWrite.of(CALL, SEED, "approve"));
    }
    if (store.supports(Capability.SUMMARIES)) {
      store.summaries().put(SEED, NewSummary.of(1, 2, json("{\"s\":1}")));
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      store.modelCalls().record(SEED, NewModelCall.of(1, "model", json("{}")));
    }
  }

  private Rejections rejections() {
    return new Rejections(store, SEED, () -> event(id("serving")));
  }

  private void assertEveryIdRejected(List<IdCall> calls) {
    for (BadKey bad : BAD_KEYS) {
      for (IdCall call : calls) {
        rejections().assertRejected(call.method() + " with " + bad.kind(), call.field(),
            () -> call.call().accept(bad.value()));
      }
    }
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Metadata merges, session cursors, fork points and cut seqs are checked, naming the parameter")
  void sessionArgumentsAreChecked() {
    Map<String, String> nullKey = new HashMap<>();
    nullKey.put(null, "v");
    assertEveryIdRejected(List.of(new IdCall("sessions().mergeMetadata(sessionId, patch)", "sessionId",
        id -> store.sessions().mergeMetadata(id, Map.of("k", "w")))));
    Rejections rejections = rejections();
    rejections.assertRejected("mergeMetadata(sessionId, null)", "metadata",
        () -> store.sessions().mergeMetadata(SEED, null));
    rejections.assertRejected("mergeMetadata with a null key", "metadata key",
        () -> store.sessions().mergeMetadata(SEED, nullKey));
    rejections.assertRejected("mergeMetadata with a value over MAX_METADATA_VALUE_LENGTH", "metadata[",
        () -> store.sessions().mergeMetadata(SEED, Map.of("k", "v".repeat(Limits.MAX_METADATA_VALUE_LENGTH + 1))));
    rejections.assertRejected("list with a cursor this store never returned", "cursor",
        () -> store.sessions().list(new SessionQuery(null, null, null, null, Map.of(), null, OptionalInt.empty(),
            "not-a-cursor", 0)));
    if (store.supports(Capability.FORKS)) {
      rejections.assertRejected("fork at seq 0", "atSeq", () -> store.sessions().fork(SEED, 0));
      rejections.assertRejected("fork at seq -1 with an id", "atSeq", () -> store.sessions().fork(SEED, -1, "fork"));
    }
    if (store.supports(Capability.TRUNCATION)) {
      rejections.assertRejected("truncate at seq 0", "fromSeq", () -> store.events().truncate(SEED, 0));
    }
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Every tool-call operation checks its ids, status, timeout and deadline, naming the parameter")
  void toolCallArgumentsAreChecked() {
    assumeDeclared(Capability.TOOL_CALLS);
    List<IdCall> calls = new ArrayList<>(List.of(
        new IdCall("toolCalls().find", "sessionId", id -> store.toolCalls().find(id, CALL)),
        new IdCall("toolCalls().find", "toolCallId", id -> store.toolCalls().find(SEED, id)),
        new IdCall("toolCalls().pending", "sessionId", id -> store.toolCalls().pending(id)),
        new IdCall("toolCalls().resolve", "sessionId",
            id -> store.toolCalls().resolve(id, CALL, ToolCallStatus.COMPLETED, null)),
        new IdCall("toolCalls().resolve", "toolCallId",
            id -> store.toolCalls().resolve(SEED, id, ToolCallStatus.COMPLETED, null)),
        new IdCall("toolCalls().await", "sessionId", id -> store.toolCalls().await(id, CALL, Duration.ZERO)),
        new IdCall("toolCalls().await", "toolCallId", id -> store.toolCalls().await(SEED, id, Duration.ZERO)),
        new IdCall("toolCalls().cancelDeadline", "sessionId", id -> store.toolCalls().cancelDeadline(id, CALL)),
        new IdCall("toolCalls().cancelDeadline", "toolCallId", id -> store.toolCalls().cancelDeadline(SEED, id))));
    if (store.supports(Capability.DEADLINES)) {
      calls.add(new IdCall("toolCalls().expireAt", "sessionId",
          id -> store.toolCalls().expireAt(id, CALL, clock.instant().plusSeconds(60))));
      calls.add(new IdCall("toolCalls().expireAt", "toolCallId",
          id -> store.toolCalls().expireAt(SEED, id, clock.instant().plusSeconds(60))));
      calls.add(new IdCall("toolCalls().expireAfter", "sessionId",
          id -> store.toolCalls().expireAfter(id, CALL, Duration.ofSeconds(60))));
      calls.add(new IdCall("toolCalls().expireAfter", "toolCallId",
          id -> store.toolCalls().expireAfter(SEED, id, Duration.ofSeconds(60))));
    }
    assertEveryIdRejected(calls);

    Rejections rejections = rejections();
    rejections.assertRejected("toolCalls().save(null)", "toolCall", () -> store.toolCalls().save(null));
    rejections.assertRejected("resolve to a null status", "status",
        () -> store.toolCalls().resolve(SEED, CALL, null, null));
    rejections.assertRejected("resolve to PENDING", "status",
        () -> store.toolCalls().resolve(SEED, CALL, ToolCallStatus.PENDING, null));
    rejections.assertRejected("resolve to EXPIRED", "status",
        () -> store.toolCalls().resolve(SEED, CALL, ToolCallStatus.EXPIRED, null));
    rejections.assertRejected("await with a null timeout", "timeout",
        () -> store.toolCalls().await(SEED, CALL, null));
    rejections.assertRejected("await with a negative timeout", "timeout",
        () -> store.toolCalls().await(SEED, CALL, Duration.ofMillis(-1)));
    if (store.supports(Capability.DEADLINES)) {
      rejections.assertRejected("expireAt with a null deadline", "deadline",
          () -> store.toolCalls().expireAt(SEED, CALL, null));
      rejections.assertRejected("expireAfter with a null timeout", "timeout",
          () -> store.toolCalls().expireAfter(SEED, CALL, null));
      rejections.assertRejected("expireAfter with a negative timeout", "timeout",
          () -> store.toolCalls().expireAfter(SEED, CALL, Duration.ofSeconds(-1)));
    }
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Every summary operation checks its ids, summary and chapter seq, naming the parameter")
  void summaryArgumentsAreChecked() {
    assumeDeclared(Capability.SUMMARIES);
    assertEveryIdRejected(List.of(
        new IdCall("summaries().put", "sessionId", id -> store.summaries().put(id, NewSummary.of(1, 1, json("{}")))),
        new IdCall("summaries().latest", "sessionId", id -> store.summaries().latest(id)),
        new IdCall("summaries().list", "sessionId", id -> store.summaries().list(id)),
        new IdCall("summaries().revive", "sessionId", id -> store.summaries().revive(id)),
        new IdCall("summaries().revive(sessionId, agentId)", "agentId", id -> store.summaries().revive(SEED, id)),
        new IdCall("summaries().chapter", "sessionId", id -> store.summaries().chapter(id, 2)),
        new IdCall("summaries().chapter(sessionId, summaryToSeq, agentId)", "agentId",
            id -> store.summaries().chapter(SEED, 2, id))));

    Rejections rejections = rejections();
    rejections.assertRejected("summaries().put(sessionId, null)", "summary",
        () -> store.summaries().put(SEED, null));
    rejections.assertRejected("chapter at summaryToSeq 0", "summaryToSeq",
        () -> store.summaries().chapter(SEED, 0));
    rejections.assertRejected("chapter at summaryToSeq -1 of an agent", "summaryToSeq",
        () -> store.summaries().chapter(SEED, -1, "agent"));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Every checkpoint operation checks its key and data, naming the parameter")
  void checkpointArgumentsAreChecked() {
    assumeDeclared(Capability.CHECKPOINTS);
    CheckpointKey key = CheckpointKey.of(SEED, "turn");
    store.checkpoints().put(key, new byte[] {1, 2, 3});

    Rejections rejections = rejections();
    rejections.assertRejected("checkpoints().put(null, data)", "key",
        () -> store.checkpoints().put(null, new byte[] {1}));
    rejections.assertRejected("checkpoints().put(key, null)", "data", () -> store.checkpoints().put(key, null));
    rejections.assertRejected("checkpoints().put of MAX_CHECKPOINT_BYTES + 1 bytes", "data",
        () -> store.checkpoints().put(key, new byte[Limits.MAX_CHECKPOINT_BYTES + 1]));
    rejections.assertRejected("checkpoints().get(null)", "key", () -> store.checkpoints().get(null));
    rejections.assertRejected("checkpoints().delete(null)", "key", () -> store.checkpoints().delete(null));
    assertThat(store.checkpoints().get(key))
        .as("the checkpoint after the rejections").hasValueSatisfying(checkpoint ->
            assertThat(checkpoint.data()).containsExactly(1, 2, 3));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Every model-call audit operation checks its ids, row and age, naming the parameter")
  void modelCallArgumentsAreChecked() {
    assumeDeclared(Capability.MODEL_CALL_AUDIT);
    assertEveryIdRejected(List.of(
        new IdCall("modelCalls().record", "sessionId",
            id -> store.modelCalls().record(id, NewModelCall.of(2, "model", json("{}")))),
        new IdCall("modelCalls().list", "sessionId", id -> store.modelCalls().list(id)),
        new IdCall("modelCalls().deleteOlderThan(sessionId, age)", "sessionId",
            id -> store.modelCalls().deleteOlderThan(id, Duration.ZERO))));

    Rejections rejections = rejections();
    rejections.assertRejected("modelCalls().record(sessionId, null)", "call",
        () -> store.modelCalls().record(SEED, null));
    rejections.assertRejected("deleteOlderThan(sessionId, null)", "age",
        () -> store.modelCalls().deleteOlderThan(SEED, null));
    rejections.assertRejected("deleteOlderThan(sessionId, -1s)", "age",
        () -> store.modelCalls().deleteOlderThan(SEED, Duration.ofSeconds(-1)));
    rejections.assertRejected("deleteOlderThan(null)", "age", () -> store.modelCalls().deleteOlderThan(null));
    rejections.assertRejected("deleteOlderThan(-1s)", "age",
        () -> store.modelCalls().deleteOlderThan(Duration.ofSeconds(-1)));
  }
}
