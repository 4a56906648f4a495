package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Events.ids;
import static dev.sessionstore.conformance.Events.readAll;
import static dev.sessionstore.conformance.Events.seqs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sessionstore.ConflictException;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.Flush;
import dev.sessionstore.FlushResult;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionWrite;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Flush (SPEC guarantee 4): the session upsert, run upsert and events of one execution are stored together or not
 * at all. Events follow the rules of {@code appendAll}: idempotent replays (3) and the expected last seq (5), whose
 * conflict leaves the session and run untouched too.
 *
 * <p>If this fails, check: that the flush runs in one transaction (or under one lock) covering the session upsert,
 * the run upsert and the append, and that every check (expected seq, duplicate ids, name and run ownership) happens
 * before the first write or rolls all of them back; a flush that saves the session first and then fails on its
 * events leaves a half-applied execution behind.
 */
public abstract class FlushContract extends Contract {

  protected FlushContract(SessionStoreConformance kit) {
    super(kit);
  }

  /** Asserts that a failed flush left neither the session, nor the run, nor any event behind. */
  private void assertNothingCreated(String session, String runId) {
    assertThat(store.sessions().find(session)).as("session %s after the failed call", session).isEmpty();
    assertThat(store.runs().find(runId)).as("run %s after the failed call", runId).isEmpty();
    assertThat(store.events().latestSeq(session)).as("latestSeq of %s", session).isZero();
  }

  /** Everything a flush may touch, to compare before and after a failed one. */
  private record Snapshot(List<Session> sessions, Optional<Run> run, List<Event> events) {
  }

  private Snapshot snapshot(String sessionId, String runId) {
    return new Snapshot(store.sessions().list(SessionQuery.all()).items(), store.runs().find(runId),
        readAll(store.events(), sessionId));
  }

  private static List<NewEvent> events(String... ids) {
    return Arrays.stream(ids).map(Contract::event).toList();
  }

  @Test
  @Tag("guarantee-4")
  @DisplayName("A flush stores the session, the run and the events, and returns them as stored")
  void flushStoresSessionRunAndEvents() {
    String session = id("s");
    clock.advance(Duration.ofSeconds(3));

    FlushResult result = store.flush(Flush.of(SessionWrite.of(session).withAgentId("agent").withMetadata("k", "v"))
        .withRun(RunWrite.of("run-1", session).withStatus(RunStatus.COMPLETED).withUsage(json("{\"tokens\":9}")))
        .withEvents(events("a", "b", "c")));

    assertThat(result.session().agentId()).isEqualTo("agent");
    assertThat(result.session().metadata()).isEqualTo(Map.of("k", "v"));
    assertThat(result.session().createdAt()).isEqualTo(TestClock.START.plusSeconds(3));
    assertThat(result.run().status()).isEqualTo(RunStatus.COMPLETED);
    assertThat(result.run().usage()).isEqualTo(json("{\"tokens\":9}"));
    assertThat(seqs(result.events())).as("seqs returned").containsExactly(1L, 2L, 3L);
    assertThat(result.events()).extracting(Event::timestamp).containsOnly(TestClock.START.plusSeconds(3));

    assertThat(store.sessions().find(session)).as("session read after the flush").contains(result.session());
    assertThat(store.runs().find("run-1")).as("run read after the flush").contains(result.run());
    assertThat(readAll(store.events(), session)).as("events read after the flush")
        .containsExactlyElementsOf(result.events());
  }

  @Test
  @Tag("guarantee-4")
  @DisplayName("A flush of only a session write saves the session and returns no run and no events")
  void flushOfOnlyASession() {
    String session = id("s");

    FlushResult result = store.flush(Flush.of(SessionWrite.of(session).withStatus(SessionStatus.PAUSED)));

    assertThat(result.run()).isNull();
    assertThat(result.events()).isEmpty();
    assertThat(store.sessions().find(session)).contains(result.session());
    assertThat(result.session().status()).isEqualTo(SessionStatus.PAUSED);
    assertThat(store.events().latestSeq(session)).as("latestSeq of %s", session).isZero();
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("A flush merges into an existing session and run like save does, and its events continue the log")
  void flushMergesAndContinuesTheLog() {
    String session = id("s");
    store.sessions().save(SessionWrite.of(session).withName("named").withMetadata(Map.of("a", "1", "b", "2")));
    store.runs().save(RunWrite.of("run-1", session).withStatus(RunStatus.RUNNING).withUsage(json("{\"t\":1}")));
    store.events().appendAll(session, events("x", "y"));
    clock.advance(Duration.ofSeconds(10));

    FlushResult result = store.flush(Flush.of(SessionWrite.of(session).withMetadata("b", null).withMetadata("c", "3"))
        .withRun(RunWrite.of("run-1", session).withStatus(RunStatus.COMPLETED))
        .withEvents(events("z")));

    assertThat(result.session().name()).isEqualTo("named");
    assertThat(result.session().metadata()).isEqualTo(Map.of("a", "1", "c", "3"));
    assertThat(result.session().createdAt()).isEqualTo(TestClock.START);
    assertThat(result.session().updatedAt()).isEqualTo(TestClock.START.plusSeconds(10));
    assertThat(result.run().status()).isEqualTo(RunStatus.COMPLETED);
    assertThat(result.run().usage()).as("run usage the flush left out").isEqualTo(json("{\"t\":1}"));
    assertThat(seqs(result.events())).as("seqs returned").containsExactly(3L);
    assertThat(store.runs().list(session)).containsExactly(result.run());
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Replaying a flush stores its events once and leaves one session and one run")
  void replayingAFlushIsIdempotent() {
    String session = id("s");
    Flush flush = Flush.of(SessionWrite.of(session).withAgentId("agent"))
        .withRun(RunWrite.of("run-1", session).withStatus(RunStatus.COMPLETED))
        .withEvents(events("a", "b"));
    FlushResult first = store.flush(flush);
    clock.advance(Duration.ofSeconds(1));

    FlushResult again = store.flush(flush);

    assertThat(again.events()).as("events returned by the replayed flush").isEqualTo(first.events());
    assertThat(store.events().latestSeq(session)).as("latestSeq of %s", session).isEqualTo(2);
    assertThat(store.sessions().list(SessionQuery.all()).items()).hasSize(1);
    assertThat(store.runs().list(session)).hasSize(1);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("A flush mixing stored and new events keeps the stored seqs and appends the new ones")
  void flushWithMixedEvents() {
    String session = id("s");
    store.events().appendAll(session, events("a", "b"));

    FlushResult result = store.flush(Flush.of(SessionWrite.of(session)).withEvents(events("c", "a", "d")));

    assertThat(seqs(result.events())).as("seqs returned").containsExactly(3L, 1L, 4L);
    assertThat(ids(readAll(store.events(), session))).as("event ids read back from %s", session)
        .containsExactly("a", "b", "c", "d");
  }

  @Test
  @Tag("guarantee-5")
  @DisplayName("A flush expecting the seq the log ends at is stored")
  void flushWithAMatchingExpectedSeq() {
    String session = id("s");
    store.events().appendAll(session, events("a", "b"));

    FlushResult result = store.flush(Flush.of(SessionWrite.of(session)).withEvents(events("c")).expectingLastSeq(2));
    FlushResult fresh = store.flush(Flush.of(SessionWrite.of(id("s"))).withEvents(events("a")).expectingLastSeq(0));

    assertThat(seqs(result.events())).as("seqs returned").containsExactly(3L);
    assertThat(seqs(fresh.events())).as("seqs returned").containsExactly(1L);
  }

  @Test
  @Tag("guarantee-4")
  @Tag("guarantee-5")
  @DisplayName("A flush with a stale expected seq fails with a seq conflict and changes neither session, run nor log")
  void flushWithAStaleExpectedSeqStoresNothing() {
    String session = id("s");
    store.sessions().save(SessionWrite.of(session).withMetadata("a", "1"));
    store.events().appendAll(session, events("x", "y"));
    Snapshot before = snapshot(session, "run-new");
    clock.advance(Duration.ofSeconds(5));

    SeqConflictException error = catchThrowableOfType(SeqConflictException.class, () -> store.flush(
        Flush.of(SessionWrite.of(session).withStatus(SessionStatus.COMPLETED).withMetadata("b", "2")
                .withMetadata("a", null))
            .withRun(RunWrite.of("run-new", session).withStatus(RunStatus.RUNNING))
            .withEvents(events("z"))
            .expectingLastSeq(1)));

    assertThat(error).as("error for a flush expecting seq 1 with the log at 2").isNotNull();
    assertThat(error.expectedSeq()).isEqualTo(1);
    assertThat(error.actualSeq()).isEqualTo(2);
    assertThat(snapshot(session, "run-new")).as("sessions, run and log after the failed flush").isEqualTo(before);
    assertThat(store.runs().active(session)).isEmpty();
  }

  @Test
  @Tag("guarantee-4")
  @Tag("guarantee-5")
  @DisplayName("A flush expecting events of a session that does not exist creates neither the session nor the run")
  void flushConflictOnANewSessionCreatesNothing() {
    String session = id("s");

    SeqConflictException error = catchThrowableOfType(SeqConflictException.class, () -> store.flush(
        Flush.of(SessionWrite.of(session).withName("would-be"))
            .withRun(RunWrite.of("run-1", session))
            .withEvents(events("a"))
            .expectingLastSeq(3)));

    assertThat(error).as("error for a flush expecting seq 3 on an unknown session").isNotNull();
    assertThat(error.actualSeq()).isZero();
    assertThat(store.sessions().find(session)).as("session of the failed flush").isEmpty();
    assertThat(store.sessions().findByName("would-be")).isEmpty();
    assertThat(store.runs().find("run-1")).as("run of the failed flush").isEmpty();
  }

  @Test
  @Tag("guarantee-4")
  @Tag("guarantee-3")
  @DisplayName("A flush reusing a stored event id with different content stores nothing of session, run or events")
  void flushWithAConflictingDuplicateStoresNothing() {
    String session = id("s");
    store.sessions().save(SessionWrite.of(session).withMetadata("a", "1"));
    store.events().append(session, event("taken"));
    Snapshot before = snapshot(session, "run-1");
    clock.advance(Duration.ofSeconds(5));

    DuplicateEventException error = catchThrowableOfType(DuplicateEventException.class, () -> store.flush(
        Flush.of(SessionWrite.of(session).withStatus(SessionStatus.FAILED).withMetadata("b", "2"))
            .withRun(RunWrite.of("run-1", session).withStatus(RunStatus.FAILED))
            .withEvents(List.of(event("fresh-1"), event("fresh-2"),
                NewEvent.of("message", json("{\"other\":true}")).withId("taken")))));

    assertThat(error).as("error for the flush").isNotNull();
    assertThat(error.eventId()).isEqualTo("taken");
    assertThat(snapshot(session, "run-1")).as("sessions, run and log after the failed flush").isEqualTo(before);
  }

  @Test
  @Tag("guarantee-4")
  @DisplayName("A flush of a new session with two different events under one id creates nothing")
  void flushWithAnInBatchDuplicateCreatesNothing() {
    String session = id("s");

    DuplicateEventException error = catchThrowableOfType(DuplicateEventException.class, () -> store.flush(
        Flush.of(SessionWrite.of(session))
            .withRun(RunWrite.of("run-1", session))
            .withEvents(List.of(event("twin"), NewEvent.of("other").withId("twin")))));

    assertThat(error).as("error for the flush").isNotNull();
    assertNothingCreated(session, "run-1");
  }

  @Test
  @Tag("guarantee-4")
  @DisplayName("A flush naming the session with a taken name is a conflict and stores nothing")
  void flushWithATakenNameStoresNothing() {
    store.sessions().save(SessionWrite.of(id("owner")).withName("taken"));
    String session = id("s");

    ConflictException error = catchThrowableOfType(ConflictException.class, () -> store.flush(
        Flush.of(SessionWrite.of(session).withName("taken"))
            .withRun(RunWrite.of("run-1", session).withStatus(RunStatus.RUNNING))
            .withEvents(events("a"))));

    assertThat(error).as("error for the flush").isNotNull();
    assertNothingCreated(session, "run-1");
  }

  @Test
  @Tag("guarantee-4")
  @DisplayName("A flush whose run id is stored under another session is a conflict and stores nothing")
  void flushWithARunOfAnotherSessionStoresNothing() {
    String owner = id("owner");
    Run original = store.runs().save(RunWrite.of("run-1", owner).withStatus(RunStatus.RUNNING));
    String session = id("s");

    ConflictException error = catchThrowableOfType(ConflictException.class, () -> store.flush(
        Flush.of(SessionWrite.of(session))
            .withRun(RunWrite.of("run-1", session).withStatus(RunStatus.COMPLETED))
            .withEvents(events("a"))));

    assertThat(error).as("error for the flush").isNotNull();
    assertThat(store.runs().find("run-1")).contains(original);
    assertThat(store.sessions().find(session)).as("session %s after the failed call", session).isEmpty();
    assertThat(store.events().latestSeq(session)).as("latestSeq of %s", session).isZero();
  }

  @Test
  @DisplayName("A flush whose run names another session is rejected when the flush is built")
  void runNamingAnotherSessionIsRejectedAtConstruction() {
    InvalidArgumentException error = catchThrowableOfType(InvalidArgumentException.class,
        () -> Flush.of(SessionWrite.of("s-1")).withRun(RunWrite.of("run-1", "s-2")));

    assertThat(error).isNotNull();
    assertThat(error.field()).isEqualTo("flush.run.sessionId");
  }

  @Test
  @Tag("guarantee-5")
  @Tag("guarantee-3")
  @DisplayName("Replaying a flush with its original, now stale, expected seq returns the stored events")
  void replayedFlushWithAStaleExpectedSeqReturnsTheStoredEvents() {
    String session = id("s");
    Flush flush = Flush.of(SessionWrite.of(session)).withEvents(events("a", "b")).expectingLastSeq(0);
    FlushResult first = store.flush(flush);
    store.events().append(session, event("c"));

    FlushResult again = store.flush(flush);

    assertThat(again.events()).isEqualTo(first.events());
    assertThat(store.events().latestSeq(session)).as("latestSeq of %s", session).isEqualTo(3);
  }

  @Test
  @Tag("guarantee-6")
  @DisplayName("A run flushed as running is the active run right after the flush")
  void flushedRunningRunIsActive() {
    String session = id("s");

    FlushResult result = store.flush(Flush.of(SessionWrite.of(session))
        .withRun(RunWrite.of("run-1", session).withStatus(RunStatus.RUNNING))
        .withEvents(events("a")));

    assertThat(store.runs().active(session)).contains(result.run());
  }
}
