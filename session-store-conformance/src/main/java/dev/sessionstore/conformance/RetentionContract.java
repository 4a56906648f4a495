package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Events.range;
import static dev.sessionstore.conformance.Events.readAll;
import static dev.sessionstore.conformance.Events.seqs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Retention;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Revival;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Retention ({@link Capability#RETENTION}): a {@link RetentionPolicy} deletes idle sessions (optionally of some
 * statuses or one tenant), cuts whole chapters below the latest summary of sessions holding too many events, and
 * removes old model-call audit rows, by the store clock; a dry run reports the same counts and writes nothing; forks
 * keep what they show (docs/guarantees.md, fine print); a store built with a schedule applies its policy by itself.
 *
 * <p>If this fails, check that idleness counts the last event's time as well as the session's {@code updatedAt}
 * and uses the store clock, removing only what is strictly older than an age, to the microsecond (an instant stored
 * or compared in milliseconds, or {@code <=} for {@code <}, moves the boundary); that a cut ends at a summary's {@code toSeq} and never passes the latest summary; that a
 * cut or a deletion of a parent leaves the events a fork shares in place (copy them into the fork first, or leave
 * the shared storage alone); that the dry run takes no write path; and, for the schedule, that the adapter's builder
 * passes the policy to the store and its sweeper runs it every interval.
 */
public abstract class RetentionContract extends Contract {

  private static final Duration DAY = Duration.ofDays(1);
  /** The precision of instants in the API. */
  private static final Duration MICROSECOND = Duration.ofNanos(1_000);

  private final SessionStoreConformance kit;

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected RetentionContract(SessionStoreConformance kit) {
    super(kit);
    this.kit = kit;
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.RETENTION);
  }

  /** A session of {@code count} events ({@code prefix-1..}), with summaries ending at {@code summaryEnds}. */
  private String sessionWithChapters(String prefix, int count, long... summaryEnds) {
    String sessionId = id(prefix);
    store.events().appendAll(sessionId,
        IntStream.rangeClosed(1, count).mapToObj(i -> event(sessionId + "-e" + i)).toList());
    long from = 1;
    for (long end : summaryEnds) {
      store.summaries().put(sessionId, NewSummary.of(from, end, json("{\"upTo\":" + end + "}")));
      from = end + 1;
    }
    return sessionId;
  }

  private static RetentionPolicy keep(int max) {
    return RetentionPolicy.builder().keepEventsPerSession(max).build();
  }

  private static RetentionPolicy idleFor(Duration age) {
    return RetentionPolicy.builder().deleteSessionsIdleFor(age).build();
  }

  private boolean exists(String sessionId) {
    return store.sessions().find(sessionId).isPresent();
  }

  @Test
  @DisplayName("Sessions idle for longer than the age are deleted with their events; recent ones stay")
  void idleSessionsAreDeleted() {
    String old = id("old");
    store.events().append(old, event("o1"));
    clock.advance(Duration.ofDays(10));
    String recent = id("recent");
    store.sessions().save(SessionWrite.of(recent));

    RetentionReport report = store.retention().apply(idleFor(Duration.ofDays(5)));

    assertThat(report).as("report of apply").isEqualTo(new RetentionReport(false, 1, 0, 0));
    assertThat(exists(old)).as("idle session %s still exists", old).isFalse();
    assertThat(readAll(store.events(), old)).as("events of the deleted session").isEmpty();
    assertThat(exists(recent)).as("recent session %s exists", recent).isTrue();
  }

  @Test
  @DisplayName("An append counts as activity: a session whose last event is recent is not idle")
  void anAppendKeepsASessionAlive() {
    String busy = id("busy");
    store.sessions().save(SessionWrite.of(busy));
    clock.advance(Duration.ofDays(10));
    store.events().append(busy, event("late"));
    clock.advance(DAY);

    assertThat(store.retention().apply(idleFor(Duration.ofDays(5))).sessions()).as("sessions deleted").isZero();
    assertThat(exists(busy)).as("session appended to a day ago").isTrue();
  }

  @Test
  @DisplayName("Idleness is exact to the microsecond: activity (a save or an append) exactly the age ago is kept, one"
      + " microsecond older is removed")
  void theIdleAgeIsExact() {
    Duration age = Duration.ofDays(5);
    String older = id("older");
    store.sessions().save(SessionWrite.of(older));
    String appended = id("appended");
    store.sessions().save(SessionWrite.of(appended));
    clock.advance(MICROSECOND);
    String saved = id("saved");
    store.sessions().save(SessionWrite.of(saved));
    store.events().append(appended, event("a1"));
    clock.advance(age);

    RetentionReport report = store.retention().apply(idleFor(age));

    assertThat(exists(saved)).as("session saved exactly %s ago", age).isTrue();
    assertThat(exists(appended)).as("session appended to exactly %s ago", age).isTrue();
    assertThat(exists(older)).as("session idle for %s and one microsecond", age).isFalse();
    assertThat(report).as("report of apply").isEqualTo(new RetentionReport(false, 1, 0, 0));
  }

  @Test
  @DisplayName("The model-call age is exact to the microsecond: a row recorded exactly the age ago is kept, one"
      + " microsecond older is removed")
  void theModelCallAgeIsExact() {
    assumeDeclared(Capability.MODEL_CALL_AUDIT);
    Duration age = Duration.ofDays(5);
    String sessionId = id("audited");
    store.modelCalls().record(sessionId, NewModelCall.of(1, "model-x", json("{}")));
    clock.advance(MICROSECOND);
    store.modelCalls().record(sessionId, NewModelCall.of(2, "model-x", json("{}")));
    clock.advance(age);

    RetentionReport report = store.retention().apply(RetentionPolicy.builder().deleteModelCallsOlderThan(age)
        .build());

    assertThat(store.modelCalls().list(sessionId)).extracting(call -> call.turn())
        .as("turns left (turn 2 was recorded exactly %s ago, turn 1 a microsecond before)", age).containsExactly(2L);
    assertThat(report).as("report of apply").isEqualTo(new RetentionReport(false, 0, 0, 1));
  }

  @Test
  @DisplayName("The idle-session rule narrowed to statuses or to a tenant deletes only those sessions")
  void scopesNarrowTheIdleRule() {
    assumeDeclared(Capability.TENANTS);
    String done = id("done");
    store.sessions().save(SessionWrite.of(done).withStatus(SessionStatus.COMPLETED));
    String active = id("active");
    store.sessions().save(SessionWrite.of(active));
    String ours = id("ours");
    store.sessions().save(SessionWrite.of(ours).withTenant("tenant-a").withStatus(SessionStatus.PAUSED));
    String theirs = id("theirs");
    store.sessions().save(SessionWrite.of(theirs).withTenant("tenant-b").withStatus(SessionStatus.PAUSED));
    clock.advance(Duration.ofDays(10));

    RetentionReport byStatus = store.retention().apply(RetentionPolicy.builder()
        .deleteSessionsIdleFor(DAY).onlyStatuses(SessionStatus.COMPLETED).build());
    assertThat(byStatus.sessions()).as("sessions deleted by the completed-only rule").isEqualTo(1);
    assertThat(exists(done)).as("idle completed session").isFalse();
    assertThat(exists(active)).as("idle active session, outside the statuses").isTrue();

    RetentionReport byTenant = store.retention().apply(RetentionPolicy.builder()
        .deleteSessionsIdleFor(DAY).onlyTenant("tenant-a").build());
    assertThat(byTenant.sessions()).as("sessions deleted by the tenant-a rule").isEqualTo(1);
    assertThat(exists(ours)).as("idle session of tenant-a").isFalse();
    assertThat(exists(theirs)).as("idle session of tenant-b").isTrue();
    assertThat(exists(active)).as("idle session without a tenant").isTrue();
  }

  @Test
  @DisplayName("Too many events: whole chapters go, oldest first, until at most N remain; seqs go on")
  void oldChaptersAreCut() {
    assumeDeclared(Capability.SUMMARIES);
    String sessionId = sessionWithChapters("long", 10, 3, 6);

    RetentionReport report = store.retention().apply(keep(5));

    assertThat(report).as("report of apply").isEqualTo(new RetentionReport(false, 0, 6, 0));
    assertThat(seqs(readAll(store.events(), sessionId))).as("seqs left").isEqualTo(range(7, 10));
    assertThat(store.events().lastSeq(sessionId)).as("lastSeq after the cut").isEqualTo(10);
    assertThat(store.summaries().list(sessionId)).as("summaries stay").hasSize(2);
    Revival revival = store.summaries().revive(sessionId);
    assertThat(revival.summary().orElseThrow().toSeq()).as("revival's summary").isEqualTo(6);
    assertThat(seqs(revival.events())).as("revival's events").isEqualTo(range(7, 10));
    assertThat(store.events().append(sessionId, event("next")).seq()).as("seq of the next append").isEqualTo(11);
  }

  @Test
  @DisplayName("Exactly N events is not too many; a cut that leaves exactly N stops there")
  void theLimitIsInclusive() {
    assumeDeclared(Capability.SUMMARIES);
    String full = sessionWithChapters("full", 5, 2);
    String over = sessionWithChapters("over", 11, 4, 6, 8);

    RetentionReport report = store.retention().apply(keep(5));

    assertThat(seqs(readAll(store.events(), full))).as("seqs of a session holding exactly 5").isEqualTo(range(1, 5));
    assertThat(seqs(readAll(store.events(), over))).as("seqs left when the cut at 6 leaves exactly 5")
        .isEqualTo(range(7, 11));
    assertThat(report.events()).as("events cut").isEqualTo(6);
  }

  @Test
  @DisplayName("A null policy is rejected naming it; a closed store's retention fails as closed")
  void badCallsAreRejected() {
    Retention retention = store.retention();
    assertThat(catchThrowable(() -> retention.apply(null))).as("apply(null)")
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("policy");
    assertThat(catchThrowable(() -> retention.dryRun(null))).as("dryRun(null)")
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("policy");

    store.close();

    assertThat(catchThrowable(() -> retention.apply(keep(1)))).as("apply after close")
        .isInstanceOf(StoreClosedException.class);
    assertThat(catchThrowable(() -> retention.dryRun(keep(1)))).as("dryRun after close")
        .isInstanceOf(StoreClosedException.class);
    assertThat(catchThrowable(() -> store.retention())).as("retention() after close")
        .isInstanceOf(StoreClosedException.class);
  }

  @Test
  @DisplayName("A cut never passes the latest summary: the chapter no summary covers stays whole")
  void theUncoveredChapterStays() {
    assumeDeclared(Capability.SUMMARIES);
    String covered = sessionWithChapters("covered", 10, 4);
    String bare = sessionWithChapters("bare", 10);

    RetentionReport report = store.retention().apply(keep(2));

    assertThat(seqs(readAll(store.events(), covered))).as("seqs left after the latest summary (4)")
        .isEqualTo(range(5, 10));
    assertThat(report.events()).as("events cut").isEqualTo(4);
    assertThat(seqs(readAll(store.events(), bare))).as("seqs of a session without summaries")
        .isEqualTo(range(1, 10));
  }

  @Test
  @DisplayName("Revival after a cut returns exactly what it returned before")
  void revivalIsUnchangedByACut() {
    assumeDeclared(Capability.SUMMARIES);
    String sessionId = sessionWithChapters("revived", 12, 2, 5, 9);
    Revival before = store.summaries().revive(sessionId);

    store.retention().apply(keep(1));

    assertThat(store.summaries().revive(sessionId)).as("revival after the cut").isEqualTo(before);
    assertThat(readAll(store.events(), sessionId)).as("events after the cut: the latest chapter's")
        .isEqualTo(before.events());
  }

  @Test
  @DisplayName("A fork keeps the events it shares when its parent's chapters are cut")
  void aForkKeepsItsPrefixWhenTheParentIsCut() {
    assumeDeclared(Capability.SUMMARIES, Capability.FORKS);
    String parent = sessionWithChapters("parent", 12, 3, 8);
    List<Event> parentPrefix = readAll(store.events(), parent).subList(0, 5);
    String fork = store.sessions().fork(parent, 5).id();
    store.events().append(fork, event("fork-own"));
    String grandchild = store.sessions().fork(fork, 4).id();
    List<Event> forkBefore = readAll(store.events(), fork);
    List<Event> grandchildBefore = readAll(store.events(), grandchild);

    RetentionReport report = store.retention().apply(keep(10));

    assertThat(seqs(readAll(store.events(), parent))).as("parent after the cut").isEqualTo(range(4, 12));
    assertThat(report.events()).as("events cut (the parent's first chapter only)").isEqualTo(3);
    assertThat(readAll(store.events(), fork)).as("fork %s after its parent was cut", fork).isEqualTo(forkBefore);
    assertThat(seqs(forkBefore)).as("fork's log").isEqualTo(range(1, 6));
    assertThat(readAll(store.events(), fork).subList(0, 5)).extracting(Event::id)
        .as("fork's shared prefix").isEqualTo(parentPrefix.stream().map(Event::id).toList());
    assertThat(readAll(store.events(), grandchild)).as("fork of the fork").isEqualTo(grandchildBefore);
  }

  @Test
  @DisplayName("A cut of a fork, or of a fork of a fork, goes through the events it shares into its own, to the "
      + "chapter's end exactly; the sessions it shares them with keep theirs")
  void aCutOfAForkReachesIntoItsOwnEvents() {
    assumeDeclared(Capability.SUMMARIES, Capability.FORKS);
    String parent = sessionWithChapters("parent", 3);
    String fork = store.sessions().fork(parent, 2).id();
    store.events().appendAll(fork, List.of(event("f3"), event("f4"), event("f5"), event("f6")));
    store.summaries().put(fork, NewSummary.of(1, 3, json("{}")));
    String grandchild = store.sessions().fork(fork, 5).id();
    store.events().appendAll(grandchild, List.of(event("g6"), event("g7")));
    store.summaries().put(grandchild, NewSummary.of(4, 4, json("{}")));

    RetentionReport report = store.retention().apply(keep(3));

    assertThat(Events.ids(readAll(store.events(), fork))).as("fork cut through its first own event")
        .containsExactly("f4", "f5", "f6");
    assertThat(Events.ids(readAll(store.events(), grandchild))).as("fork of the fork cut inside its shared part")
        .containsExactly("f5", "g6", "g7");
    assertThat(report.events()).as("events cut (3 of the fork, 4 of the fork of the fork)").isEqualTo(7);
    assertThat(seqs(readAll(store.events(), parent))).as("parent, never cut").isEqualTo(range(1, 3));
  }

  @Test
  @DisplayName("A cut drops the link of every tool call whose requesting event it removed; a call requested by a "
      + "kept event keeps its link")
  void aCutDropsTheLinksToTheEventsItRemoved() {
    assumeDeclared(Capability.TOOL_CALLS);
    String sessionId = sessionWithChapters("linked", 6, 3);
    ToolCall kept = store.toolCalls().save(ToolCallWrite.of("call-kept", sessionId, "search")
        .withRequestEventId(sessionId + "-e4"));
    store.toolCalls().save(ToolCallWrite.of("call-cut", sessionId, "search").withRequestEventId(sessionId + "-e3"));

    assertThat(store.retention().apply(keep(3)).events()).as("events cut").isEqualTo(3);

    ToolCall cut = Lookups.present(store.toolCalls().find(sessionId, "call-cut"), "call-cut");
    assertThat(cut.requestEventId()).as("requesting event of call-cut after the cut removed it").isNull();
    assertThat(cut.status()).as("status of call-cut after the cut").isEqualTo(ToolCallStatus.PENDING);
    assertThat(store.toolCalls().find(sessionId, "call-kept")).as("call requested by a kept event").contains(kept);
  }

  @Test
  @DisplayName("A chapter of a single event is cut like any other, and a second cut starts where the first ended")
  void aChapterOfOneEventIsCut() {
    assumeDeclared(Capability.SUMMARIES);
    String sessionId = sessionWithChapters("single", 5, 1, 2);

    assertThat(store.retention().apply(keep(4)).events()).as("events cut by keeping 4 of 5").isEqualTo(1);
    assertThat(seqs(readAll(store.events(), sessionId))).as("seqs after the first cut").isEqualTo(range(2, 5));
    assertThat(store.retention().apply(keep(3)).events()).as("events cut by keeping 3 of 4").isEqualTo(1);
    assertThat(seqs(readAll(store.events(), sessionId))).as("seqs after the second cut").isEqualTo(range(3, 5));
  }

  @Test
  @DisplayName("A fork keeps the events it shares when its idle parent is deleted")
  void aForkKeepsItsPrefixWhenTheParentIsDeleted() {
    assumeDeclared(Capability.SUMMARIES, Capability.FORKS);
    String parent = sessionWithChapters("parent", 6, 3);
    clock.advance(Duration.ofDays(10));
    String fork = store.sessions().fork(parent, 4).id();
    List<Event> forkBefore = readAll(store.events(), fork);

    RetentionReport report = store.retention().apply(idleFor(Duration.ofDays(5)));

    assertThat(report.sessions()).as("sessions deleted").isEqualTo(1);
    assertThat(exists(parent)).as("idle parent").isFalse();
    assertThat(readAll(store.events(), fork)).as("fork %s after its parent was deleted", fork).isEqualTo(forkBefore);
    assertThat(seqs(forkBefore)).as("fork's log").isEqualTo(range(1, 4));
  }

  @Test
  @DisplayName("A cut chapter's events cannot be forked at; the kept ones can")
  void forkPointsInCutChaptersAreGone() {
    assumeDeclared(Capability.SUMMARIES, Capability.FORKS);
    String parent = sessionWithChapters("parent", 8, 4);
    store.retention().apply(keep(4));

    assertThat(seqs(readAll(store.events(), store.sessions().fork(parent, 5).id()))).as("fork at the first kept seq")
        .isEqualTo(range(5, 5));
    assertThat(catchThrowable(() -> store.sessions().fork(parent, 2)))
        .as("fork at a cut seq").isInstanceOf(NotFoundException.class);
  }

  @Test
  @DisplayName("A fork made after a cut takes the runs its kept events name, not those only cut events named")
  void aForkAfterACutTakesTheRunsItsLogStillNames() {
    assumeDeclared(Capability.SUMMARIES, Capability.FORKS);
    String parent = id("runs");
    store.runs().save(RunWrite.of("run-cut", parent));
    store.runs().save(RunWrite.of("run-kept", parent));
    store.events().appendAll(parent, List.of(event("r1").withRunId("run-cut"), event("r2").withRunId("run-kept"),
        event("r3").withRunId("run-kept"), event("r4"), event("r5"), event("r6")));
    store.summaries().put(parent, NewSummary.of(1, 2, json("{}")));
    store.retention().apply(keep(4));

    String fork = store.sessions().fork(parent, 5).id();

    assertThat(seqs(readAll(store.events(), fork))).as("fork's log").isEqualTo(range(3, 5));
    assertThat(store.runs().list(fork)).extracting(run -> run.id()).as("runs of the fork").containsExactly("run-kept");
  }

  @Test
  @DisplayName("Model-call audit rows older than the age are removed, newer ones stay")
  void oldAuditRowsAreRemoved() {
    assumeDeclared(Capability.MODEL_CALL_AUDIT);
    String sessionId = id("audited");
    store.modelCalls().record(sessionId, NewModelCall.of(1, "model-x", json("{}")));
    clock.advance(Duration.ofDays(10));
    store.modelCalls().record(sessionId, NewModelCall.of(2, "model-x", json("{}")));

    RetentionReport report = store.retention().apply(RetentionPolicy.builder()
        .deleteModelCallsOlderThan(Duration.ofDays(5)).build());

    assertThat(report).as("report of apply").isEqualTo(new RetentionReport(false, 0, 0, 1));
    assertThat(store.modelCalls().list(sessionId)).extracting(call -> call.turn()).as("turns left").containsExactly(2L);
  }

  @Test
  @DisplayName("A dry run of the idle rule reports the sessions and events apply then removes, and writes nothing")
  void aDryRunOfTheIdleRuleWritesNothing() {
    String idle = id("idle");
    store.events().appendAll(idle, List.of(event(idle + "-e1"), event(idle + "-e2")));
    store.runs().save(RunWrite.of("r1", idle));
    clock.advance(Duration.ofDays(10));
    String recent = id("recent");
    store.events().append(recent, event(recent + "-e1"));
    List<Event> idleBefore = readAll(store.events(), idle);

    RetentionReport dry = store.retention().dryRun(idleFor(Duration.ofDays(5)));

    assertThat(dry).as("dry run's report").isEqualTo(new RetentionReport(true, 1, 0, 0));
    assertThat(exists(idle)).as("idle session after the dry run").isTrue();
    assertThat(readAll(store.events(), idle)).as("idle session's log after the dry run").isEqualTo(idleBefore);
    assertThat(store.runs().list(idle)).as("idle session's runs after the dry run").hasSize(1);
    assertThat(store.retention().apply(idleFor(Duration.ofDays(5)))).as("apply after the dry run")
        .isEqualTo(new RetentionReport(false, 1, 0, 0));
    assertThat(exists(idle)).as("idle session after apply").isFalse();
    assertThat(exists(recent)).as("recent session after apply").isTrue();
  }

  @Test
  @DisplayName("A dry run reports what apply then removes, and writes nothing")
  void aDryRunWritesNothing() {
    assumeDeclared(Capability.SUMMARIES, Capability.FORKS, Capability.MODEL_CALL_AUDIT);
    RetentionPolicy policy = RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(5))
        .keepEventsPerSession(3).deleteModelCallsOlderThan(Duration.ofDays(5)).build();
    String idle = sessionWithChapters("idle", 4, 2);
    String parent = sessionWithChapters("cut", 9, 3, 6);
    clock.advance(Duration.ofDays(10));
    String fork = store.sessions().fork(parent, 7).id();
    store.modelCalls().record(parent, NewModelCall.of(1, "model-x", json("{}")));
    clock.advance(Duration.ofDays(10));
    store.events().append(parent, event("fresh"));
    store.modelCalls().record(parent, NewModelCall.of(2, "model-x", json("{}")));
    store.events().append(fork, event("fork-fresh"));
    List<Event> parentBefore = readAll(store.events(), parent);
    List<Event> forkBefore = readAll(store.events(), fork);

    RetentionReport dry = store.retention().dryRun(policy);

    assertThat(dry).as("dry run's report").isEqualTo(new RetentionReport(true, 1, 12, 1));
    assertThat(exists(idle)).as("idle session after the dry run").isTrue();
    assertThat(readAll(store.events(), parent)).as("parent's log after the dry run").isEqualTo(parentBefore);
    assertThat(readAll(store.events(), fork)).as("fork's log after the dry run").isEqualTo(forkBefore);
    assertThat(store.modelCalls().list(parent)).as("audit rows after the dry run").hasSize(2);
    assertThat(store.retention().dryRun(policy)).as("a second dry run").isEqualTo(dry);

    RetentionReport applied = store.retention().apply(policy);
    assertThat(applied).as("apply after the dry run").isEqualTo(new RetentionReport(false, 1, 12, 1));
    assertThat(seqs(readAll(store.events(), parent))).as("parent's log after apply").isEqualTo(range(7, 10));
    assertThat(seqs(readAll(store.events(), fork))).as("fork's log after apply").isEqualTo(range(7, 8));
    assertThat(store.retention().apply(policy)).as("apply again").isEqualTo(RetentionReport.none(false));
  }

  @Test
  @DisplayName("A store built with a schedule applies its policy by itself once the interval has passed")
  void aScheduledPolicyIsApplied() throws InterruptedException {
    SessionStore retaining = kit.newRetainingStore(clock, idleFor(Duration.ofHours(1)), Duration.ofMillis(50));
    assumeTrue(retaining != null,
        "the kit's newRetainingStore returns null: the adapter has no schedule to verify");
    try {
      String idle = id("scheduled");
      retaining.sessions().save(SessionWrite.of(idle));
      Thread.sleep(300);
      assertThat(retaining.sessions().find(idle)).as("session before it is idle, after several intervals")
          .isPresent();
      clock.advance(Duration.ofHours(2));
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (retaining.sessions().find(idle).isPresent() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(retaining.sessions().find(idle)).as("idle session, 20 s after the clock passed its age").isEmpty();

      String later = id("scheduled-again");
      retaining.sessions().save(SessionWrite.of(later));
      clock.advance(Duration.ofHours(2));
      deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (retaining.sessions().find(later).isPresent() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(retaining.sessions().find(later)).as("a session idle after the first sweep, 20 s later: the"
          + " schedule goes on").isEmpty();
    } finally {
      retaining.close();
    }
  }
}
