package dev.sessionstore.conformance;

import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCall;
import dev.sessionstore.Step;
import dev.sessionstore.RunWrite;
import dev.sessionstore.RunStatus;
import dev.sessionstore.Run;
import dev.sessionstore.Resolution;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Checkpoint;
import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.ConflictException;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Summary;
import dev.sessionstore.spi.ForkRule;
import dev.sessionstore.spi.Expiry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Forks (guarantee 11 of docs/guarantees.md): a fork at seq N starts with the parent's events 1..N (same ids, seqs,
 * content and timestamps) and copies of its summaries up to N, takes the parent's agent, tenant, status, settings and
 * metadata but not its name, records where it came from, and from then on the two logs are independent. Forking an
 * unknown session or event is an error. Requires {@link Capability#FORKS}.
 *
 * <p>A fork shows what it took forever, at any depth (a fork of a fork): later appends to the parent never reach it,
 * and truncating or deleting the parent or any ancestor never changes it. A store may share the parent's events
 * rather than copy them, as long as that holds.
 *
 * <p>If this fails, check: that a fork never reads past its fork point in a storage or table it shares with its
 * parent (by seq range and by id lookup), at every depth; that truncating or deleting a session first keeps
 * whatever its forks, and their forks, still show (materialized into them, or kept alive for them); that the fork's
 * next seq continues from N in the fork only, also for a fork of a fork made below its parent's own fork point; that shared events keep their timestamps and come back with the
 * fork's session id; that the prefix's ids, from every ancestor, take part in the fork's idempotency checks; that
 * reads merge the shared and own parts in seq order at every cursor, limit and direction; that a fork's copy of a
 * pending tool call keeps its deadline, held apart from the parent's (each expires, is moved or cancelled alone);
 * that the runs a fork takes are those named by its prefix as the log stands after any cut; and that the existence
 * checks (session, event at N, target id) run before anything is written.
 */
public abstract class ForkContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected ForkContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.FORKS);
  }

  /** Appends {@code count} events with varied fields to {@code sessionId}, one second apart. */
  private List<Event> appendEvents(String sessionId, int count) {
    List<Event> appended = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      NewEvent next = NewEvent.of(i % 2 == 0 ? "user_message" : "assistant_message",
              json("{\"text\":\"turn " + i + "\",\"n\":" + i + "}"))
          .withId(id("e"))
          .withAgentId(i % 3 == 0 ? "planner" : "coder")
          .withRunId("run-" + (i / 3));
      if (!appended.isEmpty()) {
        next = next.withParentId(appended.get(appended.size() - 1).id());
      }
      appended.add(store.events().append(sessionId, next));
      clock.advance(Duration.ofSeconds(1));
    }
    return appended;
  }

  private String parentWithEvents(int count) {
    String parent = id("parent");
    appendEvents(parent, count);
    return parent;
  }

  private List<Event> log(String sessionId) {
    return Events.readAll(store.events(), sessionId);
  }

  private static List<Event> inSession(List<Event> events, String sessionId) {
    return events.stream().map(event -> ForkRule.copy(event, sessionId)).collect(Collectors.toList());
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork holds copies of events 1..seq with the same ids, seqs, types, agents, runs, parents, payloads "
      + "and timestamps")
  void aForkCopiesTheEventsUpToTheForkPoint() {
    String parent = id("parent");
    List<Event> parentLog = appendEvents(parent, 6);

    Session fork = store.sessions().fork(parent, 4);

    assertThat(log(fork.id())).as("events of the fork at seq 4")
        .isEqualTo(inSession(parentLog.subList(0, 4), fork.id()));
    assertThat(store.events().lastSeq(fork.id())).isEqualTo(4);
    assertThat(store.events().find(fork.id(), parentLog.get(2).id()))
        .contains(ForkRule.copy(parentLog.get(2), fork.id()));
    assertThat(store.events().find(fork.id(), parentLog.get(4).id())).as("an event after the fork point").isEmpty();
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork with a generated id is a new, findable session that records its origin")
  void aForkHasAGeneratedIdAndItsOrigin() {
    String parent = parentWithEvents(3);

    Session fork = store.sessions().fork(parent, 2);

    assertThat(fork.id()).isNotBlank().isNotEqualTo(parent);
    assertThat(fork.forkOrigin()).contains(new ForkOrigin(parent, 2));
    assertThat(present(store.sessions().find(fork.id()), "fork %s", fork.id())).isEqualTo(fork);
    assertThat(store.sessions().fork(parent, 2).id()).as("id of a second fork").isNotEqualTo(fork.id());
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork does not inherit its parent's expiry, and the parent keeps it")
  void aForkHasNoExpiry() {
    String parent = parentWithEvents(2);
    Instant expiry = clock.instant().plusSeconds(600);
    store.sessions().save(SessionWrite.of(parent).withExpiresAt(expiry));

    Session fork = store.sessions().fork(parent, 2);

    assertThat(fork.expiry()).as("expiry of the fork").isEmpty();
    assertThat(present(store.sessions().find(fork.id()), "fork").expiry()).as("expiry of the fork as stored")
        .isEmpty();
    assertThat(present(store.sessions().find(parent), "parent").expiry()).as("expiry of the parent").contains(expiry);
    assertThat(store.sessions().list(SessionQuery.all().expiresBefore(expiry.plusSeconds(1))).items())
        .as("sessions expiring by then").extracting(Session::id).containsExactly(parent);
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork with a caller-chosen id takes exactly that id")
  void aForkTakesTheGivenId() {
    String parent = parentWithEvents(3);

    Session fork = store.sessions().fork(parent, 3, "Branch-One");

    assertThat(fork.id()).isEqualTo("Branch-One");
    assertThat(fork.forkOrigin()).contains(new ForkOrigin(parent, 3));
    assertThat(Events.seqs(log("Branch-One"))).containsExactly(1L, 2L, 3L);
    assertThat(store.sessions().find("branch-one")).as("a lookalike of the fork id").isEmpty();
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork takes the parent's agent, tenant, status, settings and metadata, but not its name")
  void aForkCopiesTheParentsFieldsButNotItsName() {
    String parent = id("parent");
    SessionWrite write = SessionWrite.of(parent).withName(id("name")).withAgentId("agent-7")
        .withStatus(SessionStatus.PAUSED).withSettings(json("{\"model\":\"m-1\",\"resume_policy\":\"eager\"}"))
        .withMetadata(Map.of("team", "blue", "topic", "refunds"));
    if (store.supports(Capability.TENANTS)) {
      write = write.withTenant("tenant-a");
    }
    Session stored = store.sessions().save(write);
    appendEvents(parent, 2);

    Session fork = store.sessions().fork(parent, 2);

    assertThat(fork.agentId()).isEqualTo("agent-7");
    assertThat(fork.status()).isEqualTo(SessionStatus.PAUSED);
    assertThat(fork.settings()).isEqualTo(stored.settings());
    assertThat(fork.metadata()).isEqualTo(Map.of("team", "blue", "topic", "refunds"));
    assertThat(fork.tenant()).isEqualTo(stored.tenant());
    assertThat(fork.name()).as("name of the fork").isNull();
    assertThat(present(store.sessions().find(fork.id()), "fork")).isEqualTo(fork);
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Forking leaves the parent untouched: same session, same events, no fork origin")
  void forkingLeavesTheParentUntouched() {
    String parent = parentWithEvents(5);
    Session before = present(store.sessions().find(parent), "parent");
    List<Event> logBefore = log(parent);
    clock.advance(Duration.ofMinutes(1));

    store.sessions().fork(parent, 3);

    assertThat(store.sessions().find(parent)).as("parent after forking").contains(before);
    assertThat(log(parent)).as("parent log after forking").isEqualTo(logBefore);
    assertThat(before.forkOrigin()).isEmpty();
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Appends to a fork continue from the fork point and never reach the parent")
  void appendsToTheForkDoNotReachTheParent() {
    String parent = id("parent");
    List<Event> parentLog = appendEvents(parent, 5);
    Session fork = store.sessions().fork(parent, 3);

    Event forked = store.events().append(fork.id(), event(id("fork-only")));

    assertThat(forked.seq()).as("seq of the first append to a fork at seq 3").isEqualTo(4);
    assertThat(Events.seqs(log(fork.id()))).containsExactly(1L, 2L, 3L, 4L);
    assertThat(log(parent)).as("parent log after appending to the fork").isEqualTo(parentLog);
    assertThat(store.events().find(parent, forked.id())).as("the fork's event looked up in the parent").isEmpty();
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Appends to the parent after forking never reach the fork")
  void appendsToTheParentDoNotReachTheFork() {
    String parent = parentWithEvents(3);
    Session fork = store.sessions().fork(parent, 3);
    List<Event> forkLog = log(fork.id());

    Event later = store.events().append(parent, event(id("parent-only")));

    assertThat(later.seq()).isEqualTo(4);
    assertThat(log(fork.id())).as("fork log after appending to the parent").isEqualTo(forkLog);
    assertThat(store.events().lastSeq(fork.id())).isEqualTo(3);
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Parent and fork diverge: the same next seq holds different events in each")
  void parentAndForkDiverge() {
    String parent = parentWithEvents(2);
    Session fork = store.sessions().fork(parent, 2);

    Event inParent = store.events().append(parent, event(id("left")));
    Event inFork = store.events().append(fork.id(), event(id("right")));
    Event inFork2 = store.events().append(fork.id(), event(id("right")));

    assertThat(inParent.seq()).isEqualTo(3);
    assertThat(inFork.seq()).isEqualTo(3);
    assertThat(inFork2.seq()).isEqualTo(4);
    assertThat(Events.ids(log(parent)).subList(2, 3)).containsExactly(inParent.id());
    assertThat(Events.ids(log(fork.id())).subList(2, 4)).containsExactly(inFork.id(), inFork2.id());
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Replaying a copied event in the fork returns the copy; its id with other content is a duplicate")
  void copiedEventsTakePartInTheForksIdempotency() {
    String parent = id("parent");
    NewEvent first = event(id("e")).withTimestamp(clock.instant());
    store.events().append(parent, first);
    store.events().append(parent, event(id("e")));
    Session fork = store.sessions().fork(parent, 2);

    Event replayed = store.events().append(fork.id(), first);

    assertThat(replayed.seq()).as("seq of a replayed copied event").isEqualTo(1);
    assertThat(replayed).isEqualTo(log(fork.id()).get(0));
    assertThat(store.events().lastSeq(fork.id())).as("last seq of the fork after a replay").isEqualTo(2);
    assertThatThrownBy(() -> store.events().append(fork.id(),
        NewEvent.of("message", json("{\"other\":true}")).withId(first.id())))
        .isInstanceOf(DuplicateEventException.class);
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork at the last seq copies the whole log")
  void aForkAtTheLastSeqCopiesEverything() {
    String parent = id("parent");
    List<Event> parentLog = appendEvents(parent, 4);

    Session fork = store.sessions().fork(parent, 4);

    assertThat(log(fork.id())).isEqualTo(inSession(parentLog, fork.id()));
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork of a fork copies from the intermediate fork, whose own appends it includes")
  void aForkOfAFork() {
    String parent = parentWithEvents(3);
    Session child = store.sessions().fork(parent, 2);
    Event childOnly = store.events().append(child.id(), event(id("child-only")));
    store.events().append(child.id(), event(id("child-only")));

    Session grandchild = store.sessions().fork(child.id(), 3);

    assertThat(grandchild.forkOrigin()).contains(new ForkOrigin(child.id(), 3));
    List<Event> grandLog = log(grandchild.id());
    assertThat(Events.seqs(grandLog)).containsExactly(1L, 2L, 3L);
    assertThat(grandLog.get(2)).isEqualTo(ForkRule.copy(childOnly, grandchild.id()));
    assertThat(Events.ids(grandLog).subList(0, 2)).isEqualTo(Events.ids(log(parent)).subList(0, 2));
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Summaries with toSeq up to the fork point are copied, later ones are not")
  void aForkCopiesSummariesUpToTheForkPoint() {
    assumeDeclared(Capability.SUMMARIES);
    String parent = parentWithEvents(8);
    Summary early = store.summaries().put(parent, NewSummary.of(1, 2, json("{\"s\":2}")));
    Summary atPoint = store.summaries().put(parent, NewSummary.of(3, 5, json("{\"s\":5}")));
    store.summaries().put(parent, NewSummary.of(6, 7, json("{\"s\":7}")));

    Session fork = store.sessions().fork(parent, 5);

    assertThat(store.summaries().list(fork.id())).as("summaries of a fork at seq 5")
        .containsExactly(ForkRule.copy(early, fork.id()), ForkRule.copy(atPoint, fork.id()));
    assertThat(store.summaries().list(parent)).as("summaries of the parent").hasSize(3);
    assertThat(store.summaries().revive(fork.id()).events()).isEmpty();
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Forking onto an existing session id is a conflict that changes neither session")
  void forkingOntoAnExistingIdIsAConflict() {
    String parent = parentWithEvents(3);
    String taken = id("taken");
    store.events().append(taken, event(id("e")));
    List<Event> takenLog = log(taken);
    Session takenSession = present(store.sessions().find(taken), "taken");

    assertThatThrownBy(() -> store.sessions().fork(parent, 2, taken)).isInstanceOf(ConflictException.class);
    assertThatThrownBy(() -> store.sessions().fork(parent, 2, parent)).as("forking a session onto itself")
        .isInstanceOf(ConflictException.class);

    assertThat(log(taken)).as("log of the session the fork collided with").isEqualTo(takenLog);
    assertThat(store.sessions().find(taken)).contains(takenSession);
    assertThat(Events.seqs(log(parent))).containsExactly(1L, 2L, 3L);
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Forking an unknown session is NotFoundException and creates nothing")
  void forkingAnUnknownSessionIsNotFound() {
    assertThatThrownBy(() -> store.sessions().fork("no-such-session", 1)).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> store.sessions().fork("no-such-session", 1, "target"))
        .isInstanceOf(NotFoundException.class);

    assertThat(store.sessions().find("target")).isEmpty();
    assertThat(store.sessions().list(SessionQuery.all()).items()).isEmpty();
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Forking past the last seq is NotFoundException and creates nothing")
  void forkingPastTheLastSeqIsNotFound() {
    String parent = parentWithEvents(3);

    assertThatThrownBy(() -> store.sessions().fork(parent, 4, "target")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> store.sessions().fork(parent, 99)).isInstanceOf(NotFoundException.class);

    assertThat(store.sessions().find("target")).isEmpty();
    assertThat(store.sessions().list(SessionQuery.all()).items()).extracting(Session::id).containsExactly(parent);
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Forking an existing session with no events, or at seq 0 or below, is rejected and creates nothing")
  void forkingAtNoEventIsRejected() {
    String parent = parentWithEvents(2);
    String empty = id("empty");
    store.sessions().save(SessionWrite.of(empty));

    assertThatThrownBy(() -> store.sessions().fork(empty, 1, "t1")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> store.sessions().fork(parent, 0, "t2"))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("atSeq"));
    assertThatThrownBy(() -> store.sessions().fork(parent, -1, "t3"))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("atSeq"));

    assertThat(store.sessions().list(SessionQuery.all()).items()).extracting(Session::id)
        .containsExactlyInAnyOrder(parent, empty);
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork owns its copies: deleting or truncating the parent leaves the fork's events")
  void aForkOwnsItsCopies() {
    String parent = id("parent");
    List<Event> parentLog = appendEvents(parent, 4);
    Session fork = store.sessions().fork(parent, 4);
    if (store.supports(Capability.TRUNCATION)) {
      store.events().truncate(parent, 2);
      assertThat(log(fork.id())).as("fork log after truncating the parent")
          .isEqualTo(inSession(parentLog, fork.id()));
    }

    store.sessions().delete(parent);

    assertThat(log(fork.id())).as("fork log after deleting the parent").isEqualTo(inSession(parentLog, fork.id()));
    assertThat(present(store.sessions().find(fork.id()), "fork").forkOrigin()).contains(new ForkOrigin(parent, 4));
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Truncating or deleting a fork leaves the parent's events")
  void changingTheForkLeavesTheParent() {
    String parent = id("parent");
    List<Event> parentLog = appendEvents(parent, 4);
    Session fork = store.sessions().fork(parent, 4);
    if (store.supports(Capability.TRUNCATION)) {
      store.events().truncate(fork.id(), 1);
      assertThat(log(parent)).as("parent log after truncating the fork").isEqualTo(parentLog);
    }

    store.sessions().delete(fork.id());

    assertThat(log(parent)).as("parent log after deleting the fork").isEqualTo(parentLog);
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Two forks of one parent are independent of each other")
  void siblingForksAreIndependent() {
    String parent = parentWithEvents(2);
    Session left = store.sessions().fork(parent, 2, "left");
    Session right = store.sessions().fork(parent, 1, "right");

    store.events().append(left.id(), event(id("l")));

    assertThat(Events.seqs(log("left"))).containsExactly(1L, 2L, 3L);
    assertThat(Events.seqs(log("right"))).containsExactly(1L);
    assertThat(store.events().append(right.id(), event(id("r"))).seq()).isEqualTo(2);
    assertThat(Events.seqs(log(parent))).containsExactly(1L, 2L);
  }

  @Test
  @Tag("guarantee-11")
  @Tag("guarantee-19")
  @DisplayName("A fork takes the runs its prefix names, the tool calls its prefix requested and the checkpoints; a "
      + "pending call copied into the fork is resolved independently of the parent's")
  void aForkTakesRunsToolCallsAndCheckpointsOfItsPrefix() {
    assumeDeclared(Capability.TOOL_CALLS, Capability.CHECKPOINTS);
    String parent = id("parent");
    store.commit(Step.builder(parent)
        .run(RunWrite.of("r-in", parent).withStatus(RunStatus.WAITING))
        .events(List.of(event("e1").withRunId("r-in"), NewEvent.of("tool_use").withId("use-1"), event("e3")))
        .registerToolCall(ToolCallWrite.of("call-1", parent, "approve").withRequestEventId("use-1"))
        .putCheckpoint("turn", new byte[] {4, 2})
        .build());
    store.commit(Step.builder(parent)
        .run(RunWrite.of("r-out", parent))
        .events(List.of(event("e4").withRunId("r-out"), NewEvent.of("tool_use").withId("use-2")))
        .registerToolCall(ToolCallWrite.of("call-2", parent, "fetch").withRequestEventId("use-2"))
        .registerToolCall(ToolCallWrite.of("call-3", parent, "fetch"))
        .build());

    Session fork = store.sessions().fork(parent, 3);

    assertThat(store.runs().list(fork.id())).extracting(Run::id).containsExactly("r-in");
    assertThat(store.runs().find(fork.id(), "r-in").map(Run::status)).contains(RunStatus.WAITING);
    assertThat(store.runs().active(fork.id()).map(Run::id)).contains("r-in");
    assertThat(store.toolCalls().pending(fork.id())).extracting(ToolCall::id).containsExactly("call-1");
    assertThat(store.toolCalls().find(fork.id(), "call-2")).as("a call requested after the fork point").isEmpty();
    assertThat(store.toolCalls().find(fork.id(), "call-3")).as("a call with no requesting event").isEmpty();
    assertThat(store.checkpoints().get(CheckpointKey.of(fork.id(), "turn")).map(Checkpoint::data))
        .hasValueSatisfying(data -> assertThat(data).containsExactly(4, 2));

    Resolution inFork = store.toolCalls().resolve(fork.id(), "call-1", ToolCallStatus.COMPLETED, json("{\"f\":1}"));
    assertThat(inFork.won()).as("resolving the fork's copy").isTrue();
    assertThat(store.toolCalls().find(parent, "call-1").map(ToolCall::status)).as("the parent's call")
        .contains(ToolCallStatus.PENDING);
    Resolution inParent = store.toolCalls().resolve(parent, "call-1", ToolCallStatus.FAILED, json("{\"p\":1}"));
    assertThat(inParent.won()).as("resolving the parent's call after the fork's").isTrue();
    assertThat(store.toolCalls().find(fork.id(), "call-1").map(ToolCall::result)).contains(json("{\"f\":1}"));
  }
  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork takes a run first named by the event at the fork point, and not one first named just after")
  void aForkTakesTheRunsNamedUpToItsForkPointExactly() {
    String parent = id("parent");
    store.runs().save(RunWrite.of("at-point", parent));
    store.runs().save(RunWrite.of("after-point", parent));
    store.events().appendAll(parent, List.of(event("e1"), event("e2").withRunId("at-point"),
        event("e3").withRunId("after-point"), event("e4").withRunId("at-point")));

    Session atTwo = store.sessions().fork(parent, 2);
    Session atOne = store.sessions().fork(parent, 1);

    assertThat(store.runs().list(atTwo.id())).as("runs of the fork at seq 2").extracting(Run::id)
        .containsExactly("at-point");
    assertThat(store.runs().list(atOne.id())).as("runs of the fork at seq 1").isEmpty();
  }

  @Test
  @Tag("guarantee-11")
  @Tag("guarantee-12")
  @DisplayName("After a cut, a run counts as named where its first surviving event is: a fork before that event does "
      + "not take it")
  void aForkAfterACutTakesTheRunsItsPrefixNamesNow() {
    assumeDeclared(Capability.TRUNCATION);
    String parent = id("parent");
    store.runs().save(RunWrite.of("moved", parent));
    store.events().appendAll(parent, List.of(event("e1"), event("e2"), event("e3").withRunId("moved")));
    assertThat(store.events().truncate(parent, 3)).as("events the cut removed").isEqualTo(1);
    store.events().appendAll(parent, List.of(event("e3-again"), event("e4").withRunId("moved")));

    Session beforeTheRun = store.sessions().fork(parent, 3);
    Session withTheRun = store.sessions().fork(parent, 4);

    assertThat(store.runs().list(beforeTheRun.id())).as("runs of a fork at the seq the cut event had").isEmpty();
    assertThat(store.runs().list(withTheRun.id())).as("runs of a fork that holds the run's first surviving event")
        .extracting(Run::id).containsExactly("moved");
  }

  @Test
  @Tag("guarantee-11")
  @Tag("guarantee-12")
  @DisplayName("A fork of a fork, and a fork of a log truncated above its runs' first events, take every run their "
      + "prefix names, up to the fork point exactly")
  void forksOfForksAndOfTruncatedLogsTakeTheRunsTheirPrefixNames() {
    assumeDeclared(Capability.TRUNCATION);
    String parent = id("parent");
    for (String run : List.of("first", "at-point", "later")) {
      store.runs().save(RunWrite.of(run, parent));
    }
    store.events().appendAll(parent, List.of(event("e1").withRunId("first"), event("e2").withRunId("at-point"),
        event("e3").withRunId("later"), event("e4").withRunId("first")));
    Session fork = store.sessions().fork(parent, 2);
    store.events().append(fork.id(), event("f3"));

    assertThat(runIds(store.sessions().fork(fork.id(), 2))).as("runs of a fork of the fork at its fork point")
        .containsExactlyInAnyOrder("first", "at-point");
    assertThat(runIds(store.sessions().fork(fork.id(), 1))).as("runs of a fork of the fork at seq 1")
        .containsExactly("first");
    assertThat(store.events().truncate(parent, 3)).as("events removed by a cut at seq 3").isEqualTo(2);
    assertThat(runIds(store.sessions().fork(parent, 2))).as("runs of a fork of the parent after the cut")
        .containsExactlyInAnyOrder("first", "at-point");
  }

  private List<String> runIds(Session session) {
    return store.runs().list(session.id()).stream().map(Run::id).toList();
  }

  @Test
  @Tag("guarantee-11")
  @Tag("guarantee-12")
  @DisplayName("Truncating a fork at its first own event, then below its fork point, keeps exactly the events before "
      + "each cut; appends continue from the cut and the parent never changes")
  void truncatingAForkAtAndBelowItsForkPoint() {
    assumeDeclared(Capability.TRUNCATION);
    String parent = id("parent");
    List<Event> parentLog = appendEvents(parent, 4);
    Session fork = store.sessions().fork(parent, 3);
    store.events().appendAll(fork.id(), List.of(event("f4"), event("f5")));

    assertThat(store.events().truncate(fork.id(), 4)).as("events removed by a cut at the fork's first own event")
        .isEqualTo(2);
    assertThat(log(fork.id())).as("the fork after a cut at its first own event")
        .isEqualTo(inSession(parentLog.subList(0, 3), fork.id()));
    assertThat(store.events().truncate(fork.id(), 2)).as("events removed by a cut below the fork point").isEqualTo(2);
    assertThat(log(fork.id())).as("the fork after a cut below its fork point")
        .isEqualTo(inSession(parentLog.subList(0, 1), fork.id()));
    Event next = store.events().append(fork.id(), event("f2"));
    assertThat(next.seq()).as("seq of the next append to the cut fork").isEqualTo(2);
    assertThat(store.events().find(fork.id(), parentLog.get(1).id())).as("a shared event the cut removed").isEmpty();
    assertThat(Events.ids(log(fork.id()))).containsExactly(parentLog.get(0).id(), "f2");
    assertThat(log(parent)).as("the parent after its fork was cut twice").isEqualTo(parentLog);
  }

  @Test
  @Tag("guarantee-11")
  @Tag("guarantee-12")
  @DisplayName("Truncating a parent above the fork point twice, with appends between, never changes the fork")
  void truncatingASharedParentTwiceLeavesTheFork() {
    assumeDeclared(Capability.TRUNCATION);
    String parent = id("parent");
    List<Event> parentLog = appendEvents(parent, 5);
    Session fork = store.sessions().fork(parent, 3);
    List<Event> forkLog = log(fork.id());

    assertThat(store.events().truncate(parent, 5)).isEqualTo(1);
    store.events().append(parent, event("p5"));
    assertThat(store.events().truncate(parent, 4)).isEqualTo(2);
    store.events().append(parent, event("p4"));

    assertThat(log(fork.id())).as("the fork after its parent was cut twice above the fork point").isEqualTo(forkLog);
    assertThat(Events.ids(log(parent))).as("the parent after two cuts and appends").containsExactly(
        parentLog.get(0).id(), parentLog.get(1).id(), parentLog.get(2).id(), "p4");
    Session second = store.sessions().fork(parent, 4);
    assertThat(Events.ids(log(second.id()))).as("a fork of the cut parent at its new last event")
        .isEqualTo(Events.ids(log(parent)));
  }

  /**
   * A parent whose first event requests the pending calls {@code callIds}, each with the deadline {@code deadline},
   * and a fork of it at seq 1; returns the fork's id.
   */
  private String forkWithPendingCalls(String parent, Instant deadline, String... callIds) {
    Step.Builder step = Step.builder(parent).events(List.of(NewEvent.of("tool_use").withId("use-1"), event("e2")));
    for (String callId : callIds) {
      step.registerToolCall(ToolCallWrite.of(callId, parent, "approve").withRequestEventId("use-1")
          .withDeadline(deadline));
    }
    store.commit(step.build());
    return store.sessions().fork(parent, 1).id();
  }

  private ToolCall call(String sessionId, String callId) {
    return present(store.toolCalls().find(sessionId, callId), "tool call %s of %s", callId, sessionId);
  }

  @Test
  @Tag("guarantee-10")
  @Tag("guarantee-11")
  @DisplayName("A fork's copy of a pending call keeps its deadline and expires when it is due, though the parent "
      + "resolved its own call")
  void aForkedPendingCallExpiresAtItsDeadline() {
    assumeDeclared(Capability.TOOL_CALLS, Capability.DEADLINES);
    String parent = id("parent");
    Instant deadline = clock.instant().plus(Duration.ofMinutes(10));
    String fork = forkWithPendingCalls(parent, deadline, "wait-1");

    assertThat(call(fork, "wait-1").deadline()).as("deadline of the fork's copy").isEqualTo(deadline);
    assertThat(store.toolCalls().resolve(parent, "wait-1", ToolCallStatus.COMPLETED, json("{\"p\":1}")).won())
        .as("resolving the parent's call").isTrue();
    clock.advance(Duration.ofMinutes(10).minusMillis(1));
    assertThat(store.toolCalls().pending(fork)).as("the fork's pending calls just before the deadline")
        .extracting(ToolCall::id).containsExactly("wait-1");
    clock.advance(Duration.ofMillis(1));

    ToolCall copy = call(fork, "wait-1");
    assertThat(copy.status()).as("status of the fork's copy once its deadline passed").isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(copy.result()).as("result of the fork's expired copy").isEqualTo(Expiry.result(deadline));
    assertThat(store.toolCalls().pending(fork)).as("the fork's pending calls after the deadline").isEmpty();
    assertThat(call(parent, "wait-1").status()).as("the parent's call, resolved before the deadline")
        .isEqualTo(ToolCallStatus.COMPLETED);
  }

  @Test
  @Tag("guarantee-10")
  @Tag("guarantee-11")
  @DisplayName("Deadlines of a fork's copies and of the parent's calls are independent: cancelling or moving one "
      + "leaves the other, and each expires only when its own is due")
  void deadlinesOfAForkAndItsParentAreIndependent() {
    assumeDeclared(Capability.TOOL_CALLS, Capability.DEADLINES);
    String parent = id("parent");
    Instant deadline = clock.instant().plus(Duration.ofMinutes(10));
    Instant later = deadline.plus(Duration.ofHours(1));
    String fork = forkWithPendingCalls(parent, deadline, "in-parent", "in-fork", "moved");

    assertThat(store.toolCalls().cancelDeadline(parent, "in-parent")).as("cancelling the parent's deadline").isTrue();
    assertThat(store.toolCalls().cancelDeadline(fork, "in-fork")).as("cancelling the fork's deadline").isTrue();
    assertThat(store.toolCalls().expireAt(fork, "moved", later)).as("moving the fork's deadline later").isTrue();
    assertThat(call(fork, "in-parent").deadline()).as("the fork's copy after the parent's was cancelled")
        .isEqualTo(deadline);
    assertThat(call(parent, "in-fork").deadline()).as("the parent's call after the fork's copy was cancelled")
        .isEqualTo(deadline);
    assertThat(call(parent, "moved").deadline()).as("the parent's call after the fork's copy was moved")
        .isEqualTo(deadline);
    clock.set(deadline);

    assertThat(store.toolCalls().pending(parent)).as("the parent's pending calls at the deadline")
        .extracting(ToolCall::id).containsExactly("in-parent");
    assertThat(store.toolCalls().pending(fork)).as("the fork's pending calls at the deadline")
        .extracting(ToolCall::id).containsExactlyInAnyOrder("in-fork", "moved");
    assertThat(call(fork, "in-parent").status()).as("the fork's copy whose parent call lost its deadline")
        .isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(call(parent, "moved").status()).as("the parent's call whose fork copy was moved later")
        .isEqualTo(ToolCallStatus.EXPIRED);
    clock.set(later);
    assertThat(call(fork, "moved").status()).as("the fork's moved copy at its own deadline")
        .isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(store.toolCalls().pending(fork)).extracting(ToolCall::id).containsExactly("in-fork");
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork of a fork made below the first fork's own fork point holds exactly events 1..atSeq, and its"
      + " next append gets atSeq + 1")
  void aForkOfAForkBelowItsForkPoint() {
    String root = id("root");
    List<Event> rootLog = appendEvents(root, 5);
    Session child = store.sessions().fork(root, 4);
    appendEvents(child.id(), 2);

    Session grandchild = store.sessions().fork(child.id(), 2);

    assertThat(log(grandchild.id())).as("events of a fork of a fork at 2 (its parent was forked at 4)")
        .isEqualTo(inSession(rootLog.subList(0, 2), grandchild.id()));
    assertThat(store.events().find(grandchild.id(), rootLog.get(2).id()))
        .as("an event of the first fork's prefix above the second fork point").isEmpty();
    assertThat(grandchild.forkOrigin()).as("origin of the fork of the fork").contains(new ForkOrigin(child.id(), 2));
    Event next = store.events().append(grandchild.id(), event(id("next")));
    assertThat(next.seq()).as("seq of the first append to the fork of a fork at 2").isEqualTo(3);
    assertThat(Events.seqs(log(grandchild.id()))).as("seqs after that append").containsExactly(1L, 2L, 3L);
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork of a fork of a fork shows each ancestor's events up to its fork point and then its own")
  void aForkOfAForkOfAFork() {
    String root = id("root");
    List<Event> rootLog = appendEvents(root, 5);
    Session child = store.sessions().fork(root, 3);
    List<Event> childOwn = appendEvents(child.id(), 3);
    Session grandchild = store.sessions().fork(child.id(), 5);
    List<Event> grandchildOwn = appendEvents(grandchild.id(), 2);
    Session greatGrandchild = store.sessions().fork(grandchild.id(), 6);
    Event last = store.events().append(greatGrandchild.id(), event(id("last")));

    List<Event> expected = new ArrayList<>(inSession(rootLog.subList(0, 3), greatGrandchild.id()));
    expected.addAll(inSession(childOwn.subList(0, 2), greatGrandchild.id()));
    expected.addAll(inSession(grandchildOwn.subList(0, 1), greatGrandchild.id()));
    expected.add(last);
    assertThat(log(greatGrandchild.id())).as("events of the fork of a fork of a fork").isEqualTo(expected);
    assertThat(last.seq()).isEqualTo(7);
    assertThat(store.events().find(greatGrandchild.id(), rootLog.get(1).id()))
        .contains(ForkRule.copy(rootLog.get(1), greatGrandchild.id()));
    assertThat(store.events().find(greatGrandchild.id(), childOwn.get(2).id()))
        .as("an event of the grandparent after the fork point").isEmpty();
    assertThat(store.events().find(greatGrandchild.id(), rootLog.get(3).id()))
        .as("an event of the root after the first fork point").isEmpty();
    assertThat(Events.seqs(log(grandchild.id()))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
  }

  @Test
  @Tag("guarantee-11")
  @Tag("guarantee-12")
  @DisplayName("Truncating the parent below the fork point and appending again never changes the fork")
  void truncatingTheParentBelowTheForkPointLeavesTheFork() {
    assumeDeclared(Capability.TRUNCATION);
    String parent = id("parent");
    List<Event> parentLog = appendEvents(parent, 6);
    Session fork = store.sessions().fork(parent, 5);
    Event own = store.events().append(fork.id(), event(id("own")));

    store.events().truncate(parent, 2);
    List<Event> rewritten = appendEvents(parent, 5);

    List<Event> expected = new ArrayList<>(inSession(parentLog.subList(0, 5), fork.id()));
    expected.add(own);
    assertThat(log(fork.id())).as("fork log after truncating the parent below the fork point").isEqualTo(expected);
    assertThat(store.events().find(fork.id(), parentLog.get(3).id()))
        .contains(ForkRule.copy(parentLog.get(3), fork.id()));
    assertThat(store.events().find(fork.id(), rewritten.get(0).id()))
        .as("an event appended to the parent after its truncation").isEmpty();
    assertThat(Events.seqs(log(parent))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
  }

  @Test
  @Tag("guarantee-11")
  @Tag("guarantee-12")
  @DisplayName("Truncating the parent above the fork point never changes the fork, nor its own later events")
  void truncatingTheParentAboveTheForkPointLeavesTheFork() {
    assumeDeclared(Capability.TRUNCATION);
    String parent = id("parent");
    List<Event> parentLog = appendEvents(parent, 6);
    Session fork = store.sessions().fork(parent, 3);
    List<Event> own = appendEvents(fork.id(), 3);

    store.events().truncate(parent, 5);
    appendEvents(parent, 2);

    List<Event> expected = new ArrayList<>(inSession(parentLog.subList(0, 3), fork.id()));
    expected.addAll(own);
    assertThat(log(fork.id())).as("fork log after truncating the parent above the fork point").isEqualTo(expected);
    assertThat(store.events().lastSeq(fork.id())).isEqualTo(6);
  }

  @Test
  @Tag("guarantee-11")
  @Tag("guarantee-14")
  @DisplayName("Deleting the parent leaves the fork whole: its events, runs, pending tool calls, summaries and "
      + "checkpoints")
  void deletingTheParentLeavesTheForkWhole() {
    assumeDeclared(Capability.TOOL_CALLS, Capability.CHECKPOINTS, Capability.SUMMARIES);
    String parent = id("parent");
    store.commit(Step.builder(parent)
        .run(RunWrite.of("r-1", parent).withStatus(RunStatus.WAITING))
        .events(List.of(event("e1").withRunId("r-1"), NewEvent.of("tool_use").withId("use-1"), event("e3")))
        .registerToolCall(ToolCallWrite.of("call-1", parent, "approve").withRequestEventId("use-1"))
        .putCheckpoint("turn", new byte[] {7})
        .build());
    store.summaries().put(parent, NewSummary.of(1, 2, json("{\"s\":2}")));
    Session fork = store.sessions().fork(parent, 3);
    List<Event> forkLog = log(fork.id());

    store.sessions().delete(parent);

    assertThat(log(fork.id())).as("fork log after deleting the parent").isEqualTo(forkLog);
    assertThat(Events.ids(forkLog)).containsExactly("e1", "use-1", "e3");
    assertThat(store.runs().find(fork.id(), "r-1").map(Run::status)).as("the fork's run after deleting the parent")
        .contains(RunStatus.WAITING);
    assertThat(store.toolCalls().pending(fork.id())).as("pending calls of the fork after deleting the parent")
        .extracting(ToolCall::id).containsExactly("call-1");
    assertThat(store.summaries().list(fork.id())).extracting(Summary::toSeq).containsExactly(2L);
    assertThat(store.checkpoints().get(CheckpointKey.of(fork.id(), "turn"))).isPresent();
    assertThat(store.summaries().revive(fork.id()).events()).extracting(Event::id).containsExactly("e3");
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Truncating or deleting an ancestor never changes a fork of a fork, nor the fork between them")
  void changingAnAncestorLeavesAForkOfAFork() {
    String root = id("root");
    List<Event> rootLog = appendEvents(root, 5);
    Session child = store.sessions().fork(root, 4);
    List<Event> childOwn = appendEvents(child.id(), 2);
    Session grandchild = store.sessions().fork(child.id(), 5);
    List<Event> childLog = log(child.id());
    List<Event> expected = new ArrayList<>(inSession(rootLog.subList(0, 4), grandchild.id()));
    expected.add(ForkRule.copy(childOwn.get(0), grandchild.id()));
    if (store.supports(Capability.TRUNCATION)) {
      store.events().truncate(root, 2);
      appendEvents(root, 4);
      assertThat(log(grandchild.id())).as("fork of a fork after truncating its grandparent").isEqualTo(expected);
      assertThat(log(child.id())).as("fork after truncating its parent").isEqualTo(childLog);
    }

    store.sessions().delete(root);

    assertThat(log(grandchild.id())).as("fork of a fork after deleting its grandparent").isEqualTo(expected);
    assertThat(log(child.id())).as("fork after deleting its parent").isEqualTo(childLog);
    store.sessions().delete(child.id());
    assertThat(log(grandchild.id())).as("fork of a fork after deleting both ancestors").isEqualTo(expected);
  }

  @Test
  @Tag("guarantee-3")
  @Tag("guarantee-11")
  @DisplayName("In a fork of a fork, a batch replaying events of either ancestor's share returns them with their "
      + "seqs and appends only the new ones; one of their ids with other content is a duplicate")
  void replaysMatchEveryAncestorsShare() {
    String root = id("root");
    NewEvent fromRoot = event(id("root-e")).withTimestamp(clock.instant());
    store.events().append(root, fromRoot);
    store.events().append(root, event(id("root-e")));
    Session child = store.sessions().fork(root, 1);
    NewEvent fromChild = event(id("child-e")).withTimestamp(clock.instant());
    store.events().append(child.id(), fromChild);
    Session grandchild = store.sessions().fork(child.id(), 2);
    NewEvent fresh = event(id("fresh"));

    List<Event> result = store.events().appendAll(grandchild.id(), List.of(fromChild, fresh, fromRoot));

    assertThat(result).extracting(Event::seq).as("seqs of a replay of both ancestors' events and a new one")
        .containsExactly(2L, 3L, 1L);
    assertThat(result).extracting(Event::sessionId).containsOnly(grandchild.id());
    assertThat(result.get(2)).isEqualTo(log(grandchild.id()).get(0));
    assertThat(store.events().append(grandchild.id(), fromRoot, 0).seq())
        .as("seq of a replay with a stale expected seq").isEqualTo(1);
    assertThatThrownBy(() -> store.events().appendAll(grandchild.id(), List.of(event(id("x")),
        NewEvent.of("message", json("{\"other\":true}")).withId(fromRoot.id()))))
        .as("the root's event id with other content").isInstanceOf(DuplicateEventException.class);
    assertThatThrownBy(() -> store.events().append(grandchild.id(),
        NewEvent.of("message", json("{\"other\":true}")).withId(fromChild.id())))
        .as("the parent's event id with other content").isInstanceOf(DuplicateEventException.class);
    assertThat(store.events().lastSeq(grandchild.id())).isEqualTo(3);
  }

  @Test
  @Tag("guarantee-7")
  @Tag("guarantee-11")
  @DisplayName("Every page of a fork, at every cursor and limit around the fork point, in every direction, is the "
      + "page of the same log unforked")
  void pagesOfAForkAcrossTheForkPoint() {
    String parent = id("parent");
    appendEvents(parent, 8);
    Session fork = store.sessions().fork(parent, 4);
    appendEvents(fork.id(), 3);
    List<Event> all = log(fork.id());
    assertThat(Events.seqs(all)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);

    for (int limit = 1; limit <= 3; limit++) {
      for (long cursor = 0; cursor <= 8; cursor++) {
        long c = cursor;
        List<Event> newer = all.stream().filter(event -> event.seq() > c).toList();
        List<Event> older = all.stream().filter(event -> event.seq() < c).toList();
        assertThat(store.events().read(fork.id(), EventQuery.all().after(cursor).first(limit)).items())
            .as("page of the fork after %d, first %d", cursor, limit)
            .isEqualTo(newer.subList(0, Math.min(limit, newer.size())));
        if (cursor > 0) {
          assertThat(store.events().read(fork.id(), EventQuery.all().before(cursor).last(limit)).items())
              .as("page of the fork before %d, last %d", cursor, limit)
              .isEqualTo(older.subList(Math.max(0, older.size() - limit), older.size()));
          List<Event> newestFirst = new ArrayList<>(older);
          Collections.reverse(newestFirst);
          assertThat(store.events().read(fork.id(), EventQuery.all().before(cursor).newestFirst().limit(limit))
              .items()).as("page of the fork before %d, newest first, %d", cursor, limit)
              .isEqualTo(newestFirst.subList(0, Math.min(limit, newestFirst.size())));
        }
      }
    }
    assertThat(store.events().read(fork.id(), EventQuery.all().types("user_message").last(3)).items())
        .as("page of the fork of one type, last 3").extracting(Event::seq).containsExactly(3L, 5L, 7L);
    assertThat(store.events().read(fork.id(), EventQuery.all().agentId("planner").newestFirst().limit(2)).items())
        .as("page of the fork of one agent, newest first").extracting(Event::seq).containsExactly(5L, 4L);
  }
}
