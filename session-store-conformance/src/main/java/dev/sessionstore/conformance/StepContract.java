package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.ConflictException;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.ModelCall;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Resolution;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.StepResult;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The agent step (guarantee 16 of docs/guarantees.md): {@code commit(Step)} stores every member (session and metadata,
 * run, cut, events, tool calls registered with deadlines and requesting events, resolutions, deadline changes, summary,
 * checkpoints) or none; a stale resolution rejects the whole step as a value; a replayed step stores nothing twice.
 *
 * <p>If this fails, check: that the step runs in one transaction (or under one lock) and that every check (expected
 * seq against the log before the cut, duplicate ids, requesting events, resolutions, deadline targets, the summary's
 * toSeq, the session name) happens before the first write or rolls all of them back; that resolutions already stored
 * with the same status and result come back {@code Replayed}; and that a cut whose step's events already form the
 * log's tail is skipped (the {@code spi.StepLog} rule); and that the step's model-call row is written with every
 * field {@code modelCalls().record} writes (usage included), through the same code.
 */
public abstract class StepContract extends Contract {

  private static final Duration BOUND = Duration.ofSeconds(60);
  private static final Docs DOC = new Docs();

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected StepContract(SessionStoreConformance kit) {
    super(kit);
  }

  /** The results this group resolves calls with. */
  private static final class Docs {
    final dev.sessionstore.Json approved = json("{\"approved\":true}");
    final dev.sessionstore.Json denied = json("{\"approved\":false}");
  }

  private void assume(Capability... capabilities) {
    for (Capability capability : capabilities) {
      assumeTrue(store.supports(capability), "store does not declare Capability." + capability);
    }
  }

  private StepResult committed(Step step) {
    StepOutcome outcome = store.commit(step);
    assertThat(outcome).as("outcome of %s", step).isInstanceOf(StepOutcome.Committed.class);
    return ((StepOutcome.Committed) outcome).result();
  }

  /** Everything a session shows, to compare before and after a failed step. */
  private record Snapshot(Optional<Session> session, List<Event> events, List<Run> runs, List<Optional<ToolCall>> calls,
      List<ToolCall> pending, List<Summary> summaries, Map<String, Optional<Checkpoint>> checkpoints) {
  }

  private Snapshot snapshot(String session, List<String> callIds, List<String> checkpointNames) {
    List<Optional<ToolCall>> calls = new ArrayList<>();
    callIds.forEach(call -> calls.add(store.toolCalls().find(session, call)));
    Map<String, Optional<Checkpoint>> checkpoints = new LinkedHashMap<>();
    checkpointNames.forEach(name -> checkpoints.put(name, store.checkpoints().get(CheckpointKey.of(session, name))));
    return new Snapshot(store.sessions().find(session), Events.readAll(store.events(), session),
        store.runs().list(session), calls, store.toolCalls().pending(session), store.summaries().list(session),
        checkpoints);
  }

  /** A session with events e1..e4, run r1 running, a pending call c1 requested by e4, a summary 1..2, a checkpoint. */
  private String seeded() {
    String session = id("session");
    committed(Step.builder(session)
        .session(SessionWrite.of(session).withMetadata("k", "v"))
        .run(RunWrite.of("r1", session).withStatus(RunStatus.RUNNING))
        .events(List.of(event("e1"), event("e2"), event("e3"), NewEvent.of("tool_use").withId("e4")))
        .registerToolCall(ToolCallWrite.of("c1", session, "approve").withRequestEventId("e4"))
        .summary(NewSummary.of(1, 2, json("{\"s\":2}")))
        .putCheckpoint("turn", new byte[] {1, 2, 3})
        .build());
    return session;
  }

  private Snapshot snapshotOfSeeded(String session) {
    return snapshot(session, List.of("c1", "c2"), List.of("turn", "other"));
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A step that names its session claims the name: findByName finds the session, and another session "
      + "cannot take the name")
  void aStepClaimsItsSessionsName() {
    String session = id("session");
    String name = id("name");
    committed(Step.builder(session).session(SessionWrite.of(session).withName(name)).event(event("e1")).build());

    assertThat(store.sessions().findByName(name).map(Session::id)).as("findByName of the name a step gave")
        .contains(session);
    String other = id("other");
    assertThatThrownBy(() -> store.sessions().save(SessionWrite.of(other).withName(name)))
        .as("another session saving the name a step gave").isInstanceOf(ConflictException.class);
    assertThat(store.sessions().find(other)).as("the other session after its save failed").isEmpty();
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A step with only a session write upserts it and merges its metadata")
  void aSessionOnlyStep() {
    String session = id("session");
    committed(Step.builder(session).session(SessionWrite.of(session).withMetadata("a", "1")).build());

    StepResult result = committed(Step.builder(session)
        .session(SessionWrite.of(session).withStatus(SessionStatus.PAUSED).withMetadata("b", "2")).build());

    assertThat(result.session().status()).isEqualTo(SessionStatus.PAUSED);
    assertThat(result.session().metadata()).isEqualTo(Map.of("a", "1", "b", "2"));
    assertThat(store.sessions().find(session)).contains(result.session());
    assertThat(result.events()).isEmpty();
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("An empty step creates its session, active, and nothing else")
  void anEmptyStepCreatesTheSession() {
    String session = id("session");

    StepResult result = committed(Step.builder(session).build());

    assertThat(result.session().status()).isEqualTo(SessionStatus.ACTIVE);
    assertThat(store.sessions().find(session)).contains(result.session());
    assertThat(store.events().lastSeq(session)).isZero();
    assertThat(result.run()).isEmpty();
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A step with a run and events stores both; the result lists the events in step order")
  void aRunAndEventsStep() {
    String session = id("session");

    StepResult result = committed(Step.builder(session)
        .run(RunWrite.of("r1", session).withStatus(RunStatus.RUNNING))
        .events(List.of(event("a"), event("b"))).build());

    assertThat(Events.seqs(result.events())).containsExactly(1L, 2L);
    assertThat(Events.readAll(store.events(), session)).isEqualTo(result.events());
    assertThat(result.run()).isPresent();
    assertThat(store.runs().find(session, "r1")).isEqualTo(result.run());
    assertThat(store.runs().active(session)).isEqualTo(result.run());
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A step cuts the log before its events: replace the tail, summaries from the cut go, seqs continue")
  void aCutThenAppendReplacesTheTail() {
    assume(Capability.TRUNCATION, Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.CHECKPOINTS);
    String session = seeded();
    store.summaries().put(session, NewSummary.of(3, 4, json("{\"s\":4}")));

    StepResult result = committed(Step.builder(session).truncateFrom(3).expectLastSeq(4)
        .events(List.of(event("e3-edited"), event("e5"))).build());

    assertThat(result.removed()).isEqualTo(2);
    assertThat(Events.ids(Events.readAll(store.events(), session))).containsExactly("e1", "e2", "e3-edited", "e5");
    assertThat(Events.seqs(result.events())).containsExactly(3L, 4L);
    assertThat(store.summaries().list(session)).extracting(Summary::toSeq).containsExactly(2L);
  }

  @Test
  @Tag("guarantee-16")
  @Tag("guarantee-9")
  @DisplayName("A step's summary may end at the log's end after the step's cut and events, not one seq past it")
  void aSummaryInACuttingStepEndsAtTheNewEnd() {
    assume(Capability.TRUNCATION, Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.CHECKPOINTS);
    String session = seeded();
    Snapshot before = snapshotOfSeeded(session);

    assertThatThrownBy(() -> store.commit(Step.builder(session).truncateFrom(3).event(event("e3-edited"))
        .summary(NewSummary.of(3, 4, json("{\"s\":4}"))).build()))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            error -> assertThat(error.field()).isEqualTo("summary.toSeq"));
    assertThat(snapshotOfSeeded(session)).as("everything the session shows after the rejected step").isEqualTo(before);

    StepResult result = committed(Step.builder(session).truncateFrom(3).event(event("e3-edited"))
        .summary(NewSummary.of(3, 3, json("{\"s\":3}"))).build());
    assertThat(result.summary().map(Summary::toSeq)).as("summary committed with the step").contains(3L);
    assertThat(store.summaries().list(session)).extracting(Summary::toSeq).containsExactly(2L, 3L);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A step of only a cut pops the last event, guarded by the expected seq")
  void aCutOnlyStepPops() {
    assume(Capability.TRUNCATION, Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.CHECKPOINTS);
    String session = seeded();

    assertThatThrownBy(() -> store.commit(Step.builder(session).truncateFrom(4).expectLastSeq(3).build()))
        .isInstanceOf(SeqConflictException.class);
    StepResult result = committed(Step.builder(session).truncateFrom(4).expectLastSeq(4).build());

    assertThat(result.removed()).isEqualTo(1);
    assertThat(store.events().lastSeq(session)).isEqualTo(3);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("The request step stores the tool_use event, the pending call with its deadline and requesting event")
  void theRequestStep() {
    assume(Capability.TOOL_CALLS, Capability.DEADLINES);
    String session = id("session");
    Instant deadline = clock.instant().plus(Duration.ofHours(4));
    NewEvent toolUse = NewEvent.of("tool_use", json("{\"call\":\"w1\"}")).withId("use-1");

    StepResult result = committed(Step.builder(session)
        .run(RunWrite.of("r1", session).withStatus(RunStatus.WAITING))
        .event(toolUse)
        .registerToolCall(ToolCallWrite.of("w1", session, "approve").withRunId("r1").withRequestEventId("use-1")
            .withDeadline(deadline))
        .expectLastSeq(0)
        .build());

    ToolCall call = present(store.toolCalls().find(session, "w1"), "call w1");
    assertThat(result.toolCalls()).containsExactly(call);
    assertThat(call.status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(call.deadline()).isEqualTo(deadline);
    assertThat(call.requestEventId()).isEqualTo("use-1");
    assertThat(store.runs().active(session).map(Run::status)).contains(RunStatus.WAITING);

    clock.advance(Duration.ofHours(4));
    assertThat(present(store.toolCalls().find(session, "w1"), "call w1").status()).isEqualTo(ToolCallStatus.EXPIRED);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("The answer step resolves the call and appends the tool_result event together")
  void theAnswerStep() {
    assume(Capability.TRUNCATION, Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.CHECKPOINTS);
    String session = seeded();

    StepResult result = committed(Step.builder(session)
        .resolve("c1", ToolCallStatus.COMPLETED, DOC.approved)
        .event(NewEvent.of("tool_result").withId("e5"))
        .run(RunWrite.of("r1", session).withStatus(RunStatus.COMPLETED))
        .build());

    assertThat(result.resolutions()).hasSize(1);
    assertThat(result.resolutions().get(0)).isInstanceOf(Resolution.Resolved.class);
    ToolCall call = present(store.toolCalls().find(session, "c1"), "call c1");
    assertThat(call.status()).isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(call.result()).isEqualTo(DOC.approved);
    assertThat(store.events().find(session, "e5")).isPresent();
    assertThat(store.runs().active(session)).isEmpty();
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A step that registers a tool call and resolves it commits: the call is stored resolved, with the "
      + "step's events; the same step again is Replayed")
  void aStepRegistersAndResolvesACall() {
    assume(Capability.TOOL_CALLS);
    String session = id("session");
    committed(Step.builder(session).event(event("before")).build());
    Step step = Step.builder(session)
        .events(List.of(NewEvent.of("tool_use").withId("use-1"), NewEvent.of("tool_result").withId("result-1")))
        .registerToolCall(ToolCallWrite.of("quick", session, "lookup").withRequestEventId("use-1"))
        .resolve("quick", ToolCallStatus.COMPLETED, DOC.approved)
        .expectLastSeq(1)
        .build();

    StepResult result = committed(step);

    ToolCall call = present(store.toolCalls().find(session, "quick"), "call quick");
    assertThat(call.status()).as("status of the call the step registered and resolved")
        .isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(call.result()).isEqualTo(DOC.approved);
    assertThat(call.requestEventId()).isEqualTo("use-1");
    assertThat(result.resolutions()).as("the step's resolutions").containsExactly(new Resolution.Resolved(call));
    assertThat(store.toolCalls().pending(session)).as("pending calls after the step").isEmpty();
    assertThat(Events.seqs(Events.readAll(store.events(), session))).containsExactly(1L, 2L, 3L);

    StepResult again = committed(step);
    assertThat(again.resolutions()).as("the resolutions of the same step committed again")
        .containsExactly(new Resolution.Replayed(call));
    assertThat(present(store.toolCalls().find(session, "quick"), "call quick")).isEqualTo(call);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A step that registers a call and resolves it differently from how it is stored is rejected whole")
  void aStepResolvingItsOwnCallAgainstAnotherResolutionIsRejected() {
    assume(Capability.TOOL_CALLS);
    String session = id("session");
    committed(Step.builder(session).registerToolCall(ToolCallWrite.of("once", session, "lookup"))
        .resolve("once", ToolCallStatus.COMPLETED, DOC.approved).build());
    ToolCall stored = present(store.toolCalls().find(session, "once"), "call once");

    StepOutcome outcome = store.commit(Step.builder(session).event(event("late"))
        .registerToolCall(ToolCallWrite.of("once", session, "lookup"))
        .resolve("once", ToolCallStatus.COMPLETED, DOC.denied).build());

    assertThat(outcome).as("outcome of registering and resolving a call already resolved otherwise")
        .isEqualTo(new StepOutcome.Rejected(List.of(new Resolution.Stale("once", Optional.of(stored)))));
    assertThat(store.events().find(session, "late")).as("the rejected step's event").isEmpty();
    assertThat(present(store.toolCalls().find(session, "once"), "call once")).isEqualTo(stored);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("Deadlines set and cancelled, a summary and checkpoints put and deleted, in one step")
  void deadlinesSummaryAndCheckpoints() {
    assume(Capability.TRUNCATION, Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.CHECKPOINTS,
        Capability.DEADLINES);
    String session = seeded();
    Instant deadline = clock.instant().plusSeconds(30);

    StepResult result = committed(Step.builder(session)
        .registerToolCall(ToolCallWrite.of("c2", session, "fetch").withRequestEventId("e3").withDeadline(deadline))
        .expireAt("c1", deadline)
        .cancelDeadline("c2")
        .summary(NewSummary.of(3, 4, json("{\"s\":4}")))
        .deleteCheckpoint("turn")
        .putCheckpoint("other", new byte[] {9})
        .build());

    assertThat(present(store.toolCalls().find(session, "c1"), "c1").deadline()).isEqualTo(deadline);
    assertThat(present(store.toolCalls().find(session, "c2"), "c2").deadline()).isNull();
    assertThat(result.summary()).isPresent();
    assertThat(store.summaries().latest(session)).isEqualTo(result.summary());
    assertThat(store.checkpoints().get(CheckpointKey.of(session, "turn"))).isEmpty();
    assertThat(present(store.checkpoints().get(CheckpointKey.of(session, "other")), "checkpoint").data())
        .containsExactly(9);
    assertThat(result.checkpoints()).hasSize(1);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A stale resolution rejects the whole step as a value naming the call, and stores nothing")
  void aStaleResolutionRejectsTheStep() {
    assume(Capability.TRUNCATION, Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.CHECKPOINTS);
    String session = seeded();
    store.toolCalls().resolve(session, "c1", ToolCallStatus.CANCELLED, null);
    Snapshot before = snapshotOfSeeded(session);

    StepOutcome outcome = store.commit(Step.builder(session)
        .session(SessionWrite.of(session).withMetadata("k", "changed"))
        .resolve("c1", ToolCallStatus.COMPLETED, DOC.approved)
        .event(event("e5"))
        .putCheckpoint("other", new byte[] {1})
        .build());

    assertThat(outcome).isInstanceOf(StepOutcome.Rejected.class);
    List<Resolution.Stale> stale = ((StepOutcome.Rejected) outcome).stale();
    assertThat(stale).extracting(Resolution.Stale::toolCallId).containsExactly("c1");
    assertThat(stale.get(0).current().map(ToolCall::status)).contains(ToolCallStatus.CANCELLED);
    assertThat(snapshotOfSeeded(session)).as("everything the session shows after a rejected step").isEqualTo(before);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("Each failing member (seq conflict, reused id, invalid summary, unknown call or event) changes nothing")
  void everyFailureKindLeavesTheStoreUnchanged() {
    assume(Capability.TRUNCATION, Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.CHECKPOINTS,
        Capability.DEADLINES);
    String session = seeded();
    Snapshot before = snapshotOfSeeded(session);
    List<Runnable> failures = List.of(
        () -> assertThatThrownBy(() -> store.commit(fullStep(session).expectLastSeq(3).build()))
            .isInstanceOf(SeqConflictException.class),
        () -> assertThatThrownBy(() -> store.commit(fullStep(session)
            .event(NewEvent.of("other").withId("e2")).build()))
            .isInstanceOf(DuplicateEventException.class),
        () -> assertThatThrownBy(() -> store.commit(fullStep(session)
            .summary(NewSummary.of(1, 99, json("{}"))).build()))
            .isInstanceOf(InvalidArgumentException.class),
        () -> assertThatThrownBy(() -> store.commit(fullStep(session).expireAt("no-such-call",
            clock.instant().plusSeconds(5)).build()))
            .isInstanceOf(NotFoundException.class),
        () -> assertThatThrownBy(() -> store.commit(fullStep(session).registerToolCall(
            ToolCallWrite.of("c3", session, "x").withRequestEventId("no-such-event")).build()))
            .isInstanceOf(NotFoundException.class),
        () -> assertThatThrownBy(() -> store.commit(fullStep(session).truncateFrom(2).registerToolCall(
            ToolCallWrite.of("c3", session, "x").withRequestEventId("e3")).build()))
            .as("a requesting event the step's own cut removes")
            .isInstanceOf(NotFoundException.class),
        () -> assertThatThrownBy(() -> store.commit(fullStep(session).truncateFrom(3).registerToolCall(
            ToolCallWrite.of("c3", session, "x").withRequestEventId("e3")).build()))
            .as("a requesting event at exactly the step's cut")
            .isInstanceOf(NotFoundException.class));
    for (int i = 0; i < failures.size(); i++) {
      failures.get(i).run();
      assertThat(snapshotOfSeeded(session)).as("everything the session shows after failure %d", i).isEqualTo(before);
    }
  }

  /** A step touching every member of the seeded session, valid on its own. */
  private Step.Builder fullStep(String session) {
    return Step.builder(session)
        .session(SessionWrite.of(session).withStatus(SessionStatus.PAUSED).withMetadata("k", "v2"))
        .run(RunWrite.of("r1", session).withStatus(RunStatus.WAITING))
        .event(event("e5"))
        .registerToolCall(ToolCallWrite.of("c2", session, "fetch").withRequestEventId("e5"))
        .resolve("c1", ToolCallStatus.COMPLETED, DOC.approved)
        .putCheckpoint("other", new byte[] {7})
        .deleteCheckpoint("turn");
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A cut on an unknown session is NotFoundException and creates nothing")
  void aCutOnAnUnknownSessionIsNotFound() {
    assume(Capability.TRUNCATION);
    String session = id("session");

    assertThatThrownBy(() -> store.commit(Step.builder(session).truncateFrom(1).event(event("a")).build()))
        .isInstanceOf(NotFoundException.class);

    assertThat(store.sessions().find(session)).isEmpty();
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A replayed step stores nothing twice and returns what is stored, resolutions as Replayed")
  void aReplayedStepIsANoOp() {
    assume(Capability.TRUNCATION, Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.CHECKPOINTS);
    String session = seeded();
    Step step = Step.builder(session).expectLastSeq(4).truncateFrom(4)
        .resolve("c1", ToolCallStatus.COMPLETED, DOC.approved)
        .events(List.of(event("e4-edited"), event("e5")))
        .run(RunWrite.of("r1", session).withStatus(RunStatus.RUNNING))
        .build();
    StepResult first = committed(step);
    Snapshot after = snapshotOfSeeded(session);

    StepResult again = committed(step);

    assertThat(again.events()).isEqualTo(first.events());
    assertThat(again.removed()).as("events the replay removed").isZero();
    assertThat(again.resolutions()).hasSize(1);
    assertThat(again.resolutions().get(0)).isInstanceOf(Resolution.Replayed.class);
    assertThat(again.resolutions().get(0).applied()).isTrue();
    assertThat(snapshotOfSeeded(session).events()).isEqualTo(after.events());
    assertThat(snapshotOfSeeded(session).calls()).isEqualTo(after.calls());
    assertThat(store.commit(Step.builder(session).resolve("c1", ToolCallStatus.COMPLETED, DOC.denied).build()))
        .as("a resolution with another result after the replay").isInstanceOf(StepOutcome.Rejected.class);
  }

  @Test
  @Tag("guarantee-16")
  @Tag("guarantee-5")
  @DisplayName("16 threads racing steps with the same expected seq: exactly one commits, the log stays gapless")
  void racingStepsHaveOneWinner() {
    String session = id("session");
    committed(Step.builder(session).event(event("base")).build());
    int threads = 16;

    List<Object> outcomes = Race.run(threads, BOUND, t -> {
      try {
        return store.commit(Step.builder(session).expectLastSeq(1)
            .run(RunWrite.of("run-" + t, session).withStatus(RunStatus.RUNNING))
            .events(List.of(event("t" + t + "-a"), event("t" + t + "-b"))).build());
      } catch (SeqConflictException conflict) {
        return conflict;
      }
    });

    assertThat(outcomes.stream().filter(StepOutcome.Committed.class::isInstance)).as("committed steps").hasSize(1);
    assertThat(outcomes.stream().filter(SeqConflictException.class::isInstance)).hasSize(threads - 1);
    List<Event> log = Events.readAll(store.events(), session);
    assertThat(Events.seqs(log)).containsExactly(1L, 2L, 3L);
    assertThat(store.runs().list(session)).as("runs: only the winner's").hasSize(1);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A step's metadata merge sets and removes keys of its session, creating the session when unknown")
  void aStepMergesMetadata() {
    String session = id("session");
    StepResult created = committed(Step.builder(session).mergeMetadata(Map.of("a", "1", "b", "2")).build());
    assertThat(created.session().metadata()).as("metadata of a session the step created").isEqualTo(
        Map.of("a", "1", "b", "2"));

    Map<String, String> patch = new java.util.HashMap<>();
    patch.put("a", null);
    patch.put("c", "3");
    StepResult merged = committed(Step.builder(session)
        .session(SessionWrite.of(session).withStatus(SessionStatus.PAUSED).withMetadata("b", "from-write"))
        .mergeMetadata(patch).mergeMetadata(Map.of("b", "from-merge")).event(event("e1")).build());

    Map<String, String> expected = Map.of("b", "from-merge", "c", "3");
    assertThat(merged.session().metadata()).as("metadata returned by the step").isEqualTo(expected);
    Session stored = present(store.sessions().find(session), "session after the step");
    assertThat(stored.metadata()).as("metadata as stored").isEqualTo(expected);
    assertThat(stored.status()).as("status of the step's session write").isEqualTo(SessionStatus.PAUSED);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A step records the turn's model-call audit row whole (model, context, usage, the clock's time), equal"
      + " to the row modelCalls().record stores on its own; re-submitting it keeps one row")
  void aStepRecordsTheModelCall() {
    assume(Capability.MODEL_CALL_AUDIT);
    assumeTrue(store.modelCalls().enabled(), "the store's model-call audit is off");
    String session = id("session");
    NewModelCall call = new NewModelCall(1, "model-a", json("{\"prompt\":\"hi\"}"),
        json("{\"input_tokens\":12,\"output_tokens\":3}"));
    Step step = Step.builder(session).event(event("e1")).modelCall(call).build();

    StepResult result = committed(step);
    String alone = id("session");
    store.modelCalls().record(alone, call);

    ModelCall recorded = store.modelCalls().list(alone).get(0);
    assertThat(recorded).as("row recorded alone").isEqualTo(new ModelCall(alone, 1, "model-a", call.context(),
        call.usage(), clock.instant()));
    assertThat(store.modelCalls().list(session)).as("audit rows after the step (the row record stores alone is %s)",
        recorded).containsExactly(new ModelCall(session, recorded.turn(), recorded.model(), recorded.context(),
            recorded.usage(), recorded.recordedAt()));
    assertThat(result.modelCall()).as("audit row in the step's result").contains(
        store.modelCalls().list(session).get(0));

    StepResult again = committed(step);
    assertThat(again.events()).as("events of the re-submitted step").isEqualTo(result.events());
    assertThat(store.modelCalls().list(session)).as("audit rows after re-submitting the step")
        .extracting(ModelCall::turn).containsExactly(1L);
    assertThat(Events.seqs(Events.readAll(store.events(), session))).containsExactly(1L);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A rejected step writes neither its metadata merge nor its model-call row (stale or seq conflict)")
  void aRejectedStepWritesNeitherMetadataNorModelCall() {
    assume(Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.CHECKPOINTS, Capability.MODEL_CALL_AUDIT);
    String session = seeded();
    boolean audited = store.modelCalls().enabled();
    Snapshot before = snapshotOfSeeded(session);
    List<ModelCall> rowsBefore = store.modelCalls().list(session);

    StepOutcome stale = store.commit(Step.builder(session).mergeMetadata(Map.of("k", "changed", "new", "x"))
        .modelCall(NewModelCall.of(7, "m", json("{}")))
        .resolve("no-such-call", ToolCallStatus.COMPLETED, DOC.approved).build());
    assertThat(stale.isCommitted()).as("a step resolving an unknown call").isFalse();
    assertThatThrownBy(() -> store.commit(Step.builder(session).expectLastSeq(1)
        .mergeMetadata(Map.of("k", "changed")).modelCall(NewModelCall.of(8, "m", json("{}")))
        .event(event("late")).build()))
        .as("a step expecting a stale seq").isInstanceOf(SeqConflictException.class);

    assertThat(snapshotOfSeeded(session)).as("the session after two rejected steps").isEqualTo(before);
    assertThat(present(store.sessions().find(session), "session").metadata()).isEqualTo(Map.of("k", "v"));
    if (audited) {
      assertThat(store.modelCalls().list(session)).as("audit rows after two rejected steps").isEqualTo(rowsBefore);
    }
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("Outcomes read without casts: committed(), stale(), orElseThrow() and the resolution accessors")
  void outcomesReadWithoutCasts() {
    assume(Capability.SUMMARIES, Capability.TOOL_CALLS, Capability.CHECKPOINTS);
    String session = seeded();
    StepOutcome rejected = store.commit(Step.builder(session)
        .resolve("no-such-call", ToolCallStatus.COMPLETED, DOC.approved).build());
    assertThat(rejected.committed()).as("committed() of a rejected step").isEmpty();
    assertThat(rejected.stale()).extracting(Resolution.Stale::toolCallId).containsExactly("no-such-call");
    assertThatThrownBy(rejected::orElseThrow).isInstanceOf(dev.sessionstore.StaleResolutionException.class)
        .hasMessageContaining("no-such-call")
        .satisfies(e -> assertThat(((dev.sessionstore.StaleResolutionException) e).stale())
            .isEqualTo(rejected.stale()));

    StepOutcome committed = store.commit(Step.builder(session)
        .resolve("c1", ToolCallStatus.COMPLETED, DOC.approved).build());
    assertThat(committed.stale()).as("stale() of a committed step").isEmpty();
    StepResult result = committed.orElseThrow();
    assertThat(committed.committed()).contains(result);
    Resolution won = result.resolutions().get(0);
    assertThat(won.resolved()).as("resolved() of the winning resolution").isPresent();
    assertThat(won.replayed()).isEmpty();
    assertThat(won.stale()).isEmpty();
    assertThat(won.orElseThrow().status()).isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(won.toolCall()).contains(present(store.toolCalls().find(session, "c1"), "call c1"));

    Resolution replayed = store.toolCalls().resolve(session, "c1", ToolCallStatus.COMPLETED, DOC.approved);
    assertThat(replayed.replayed()).as("replayed() of the same resolution again").isPresent();
    assertThat(replayed.resolved()).isEmpty();
    assertThat(replayed.orElseThrow()).isEqualTo(won.orElseThrow());

    Resolution conflict = store.toolCalls().resolve(session, "c1", ToolCallStatus.FAILED, DOC.denied);
    assertThat(conflict.stale()).as("stale() of a different resolution").isPresent();
    assertThat(conflict.toolCall()).as("the stale outcome's current call").contains(won.orElseThrow());
    assertThatThrownBy(conflict::orElseThrow).isInstanceOf(dev.sessionstore.StaleResolutionException.class)
        .hasMessageContaining("c1");
  }
}
