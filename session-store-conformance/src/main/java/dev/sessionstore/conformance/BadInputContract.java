package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Bad input (guarantee 15 of docs/guarantees.md): every {@code EventLog}, {@code Sessions} and {@code Runs} method (and
 * those of the optional capabilities the store declares) rejects a null, blank, oversize ({@link Limits#MAX_KEY_LENGTH}
 * + 1) or unstorable (U+0000, unpaired surrogate) id, a negative expected seq, an oversize batch, a null batch element
 * and a null argument with an {@link InvalidArgumentException} whose {@link InvalidArgumentException#field()} names the
 * argument: the parameter's name ({@code sessionId}, {@code eventId}, {@code runId}, {@code name}, {@code event},
 * {@code events}, {@code expectedLastSeq}, {@code query}, {@code timeout}, ...), and for a whole write record the
 * prefix of its own field names ({@code session} as in {@code session.id}, {@code run}, {@code step}). After each
 * rejection the store's data is unchanged and it keeps serving: the kit compares every session, log and run list
 * before and after, then appends and reads.
 *
 * <p>If this fails, check: that each public method validates its arguments with {@code dev.sessionstore.spi.Arguments}
 * (or {@code EventBatch.of}) before opening a transaction or taking a lock, naming the parameter; that lookups do not
 * pass an unstorable id to the backend (PostgreSQL rejects U+0000 in text with an error that must not escape as a
 * backend failure); and that a failure inside a write releases its lock and rolls back, so the next call works.
 */
public abstract class BadInputContract extends Contract {

  private static final String SEED = "seed";
  private static final String OTHER = "other";

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected BadInputContract(SessionStoreConformance kit) {
    super(kit);
  }

  /** Seeds two sessions with events and runs, so that "unchanged" has something to compare. */
  @BeforeEach
  final void seedData() {
    store.sessions().save(SessionWrite.of(SEED).withName("seed-name").withMetadata("k", "v"));
    store.events().appendAll(SEED, List.of(event("e-1"), event("e-2"), event("e-3")));
    store.runs().save(RunWrite.of("run-seed", SEED).withStatus(RunStatus.RUNNING));
    store.events().append(OTHER, event("o-1"));
  }

  // ---------------------------------------------------------------- checking helpers

  private void assertRejected(String what, String field, ThrowingCallable call) {
    new Rejections(store, SEED, () -> event(id("serving"))).assertRejected(what, field, call);
  }

  private void assertServing(String after) {
    new Rejections(store, SEED, () -> event(id("serving"))).assertServing(after);
  }

  /** One id-taking method: what to call with the bad id, and the parameter name the error must give. */
  private record IdCall(String method, String field, Consumer<String> call) {
  }

  private List<IdCall> idCalls() {
    List<IdCall> calls = new ArrayList<>(List.of(
        new IdCall("events().append(sessionId, event)", "sessionId",
            id -> store.events().append(id, event("n-1"))),
        new IdCall("events().append(sessionId, event, expectedLastSeq)", "sessionId",
            id -> store.events().append(id, event("n-1"), 0)),
        new IdCall("events().appendAll(sessionId, events)", "sessionId",
            id -> store.events().appendAll(id, List.of(event("n-1")))),
        new IdCall("events().appendAll(sessionId, events, expectedLastSeq)", "sessionId",
            id -> store.events().appendAll(id, List.of(event("n-1")), 0)),
        new IdCall("events().lastSeq(sessionId)", "sessionId", id -> store.events().lastSeq(id)),
        new IdCall("events().find(sessionId, eventId)", "sessionId", id -> store.events().find(id, "e-1")),
        new IdCall("events().find(sessionId, eventId) with a bad eventId", "eventId",
            id -> store.events().find(SEED, id)),
        new IdCall("events().read(sessionId, query)", "sessionId", id -> store.events().read(id, EventQuery.all())),
        new IdCall("sessions().find(sessionId)", "sessionId", id -> store.sessions().find(id)),
        new IdCall("sessions().findByName(name)", "name", id -> store.sessions().findByName(id)),
        new IdCall("sessions().delete(sessionId)", "sessionId", id -> store.sessions().delete(id)),
        new IdCall("runs().find(sessionId, runId)", "runId", id -> store.runs().find(SEED, id)),
        new IdCall("runs().find(sessionId, runId)", "sessionId", id -> store.runs().find(id, "run")),
        new IdCall("runs().list(sessionId)", "sessionId", id -> store.runs().list(id)),
        new IdCall("runs().list(sessionId, status)", "sessionId", id -> store.runs().list(id, RunStatus.RUNNING)),
        new IdCall("runs().active(sessionId)", "sessionId", id -> store.runs().active(id))));
    if (store.supports(Capability.WAITING_READS)) {
      calls.add(new IdCall("events().await(sessionId, query, timeout)", "sessionId",
          id -> store.events().await(id, EventQuery.all(), Duration.ZERO)));
    }
    if (store.supports(Capability.TRUNCATION)) {
      calls.add(new IdCall("events().truncate(sessionId, fromSeq)", "sessionId",
          id -> store.events().truncate(id, 1)));
    }
    if (store.supports(Capability.FORKS)) {
      calls.add(new IdCall("sessions().fork(sessionId, atSeq)", "sessionId", id -> store.sessions().fork(id, 1)));
      calls.add(new IdCall("sessions().fork(sessionId, atSeq, newSessionId) with a bad newSessionId",
          "newSessionId", id -> store.sessions().fork(SEED, 1, id)));
    }
    if (store.supports(Capability.TENANTS)) {
      calls.add(new IdCall("sessions().deleteByTenant(tenant)", "tenant", id -> store.sessions().deleteByTenant(id)));
    }
    return calls;
  }

  private void assertEveryIdMethodRejects(String kind, String badId) {
    for (IdCall call : idCalls()) {
      assertRejected(call.method() + " with " + kind, call.field(), () -> call.call().accept(badId));
    }
  }

  // ---------------------------------------------------------------- ids

  @Test
  @Tag("guarantee-15")
  @DisplayName("Every method that takes an id rejects null, naming the parameter")
  void nullIdsAreRejected() {
    assertEveryIdMethodRejects("a null id", null);
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Every method that takes an id rejects an empty id, naming the parameter")
  void emptyIdsAreRejected() {
    assertEveryIdMethodRejects("an empty id", "");
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Every method that takes an id rejects a blank id, naming the parameter")
  void blankIdsAreRejected() {
    assertEveryIdMethodRejects("a blank id", " \t ");
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Every method that takes an id rejects an id one char longer than the limit, naming the parameter")
  void oversizeIdsAreRejected() {
    assertEveryIdMethodRejects("an id of MAX_KEY_LENGTH + 1 chars", "x".repeat(Limits.MAX_KEY_LENGTH + 1));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Every method that takes an id rejects an id containing U+0000, naming the parameter")
  void idsWithNulAreRejected() {
    assertEveryIdMethodRejects("an id containing U+0000", "seed\u0000");
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Every method that takes an id rejects an id with an unpaired surrogate, naming the parameter")
  void idsWithUnpairedSurrogatesAreRejected() {
    assertEveryIdMethodRejects("an id with an unpaired surrogate", "seed\uD800");
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Ids, names, types and agent ids of exactly the maximum length are accepted and round-trip")
  void keysOfMaximumLengthAreAccepted() {
    String session = "s".repeat(Limits.MAX_KEY_LENGTH);
    String name = "n".repeat(Limits.MAX_KEY_LENGTH);
    String eventId = "e".repeat(Limits.MAX_KEY_LENGTH);
    String type = "t".repeat(Limits.MAX_KEY_LENGTH);
    String agent = "a".repeat(Limits.MAX_KEY_LENGTH);
    String run = "r".repeat(Limits.MAX_KEY_LENGTH);

    store.sessions().save(SessionWrite.of(session).withName(name).withAgentId(agent));
    Event stored = store.events().append(session,
        NewEvent.of(type).withId(eventId).withAgentId(agent).withRunId(run).withParentId(eventId));
    store.runs().save(RunWrite.of(run, session));

    assertThat(store.sessions().findByName(name).map(Session::id)).contains(session);
    assertThat(store.events().find(session, eventId)).contains(stored);
    assertThat(stored.type()).isEqualTo(type);
    assertThat(store.events().read(session, EventQuery.all().types(type).agentId(agent).runId(run)).items())
        .containsExactly(stored);
    assertThat(store.runs().find(session, run).map(Run::sessionId)).contains(session);
  }

  // ---------------------------------------------------------------- other arguments

  @Test
  @Tag("guarantee-15")
  @DisplayName("A negative expected seq is rejected as expectedLastSeq, not reported as a conflict")
  void negativeExpectedSeqIsRejected() {
    assertRejected("append with expected seq -1", "expectedLastSeq",
        () -> store.events().append(SEED, event("n-1"), -1));
    assertRejected("appendAll with expected seq -1", "expectedLastSeq",
        () -> store.events().appendAll(SEED, List.of(event("n-1")), -1));
    assertRejected("append with expected seq Long.MIN_VALUE to an unknown session", "expectedLastSeq",
        () -> store.events().append("unknown", event("n-1"), Long.MIN_VALUE));
  }

  @Test
  @Tag("guarantee-15")
  @Tag("guarantee-4")
  @DisplayName("A batch larger than MAX_BATCH_SIZE is rejected as events and stores nothing")
  void oversizeBatchIsRejected() {
    List<NewEvent> batch = new ArrayList<>();
    for (int i = 0; i <= Limits.MAX_BATCH_SIZE; i++) {
      batch.add(event("big-" + i));
    }

    assertRejected("appendAll of MAX_BATCH_SIZE + 1 events", "events",
        () -> store.events().appendAll(SEED, batch));
    assertRejected("appendAll of MAX_BATCH_SIZE + 1 events with an expected seq", "events",
        () -> store.events().appendAll(SEED, batch, store.events().lastSeq(SEED)));
  }

  @Test
  @DisplayName("A batch of exactly MAX_BATCH_SIZE events is accepted")
  void batchOfMaximumSizeIsAccepted() {
    List<NewEvent> batch = new ArrayList<>();
    for (int i = 1; i <= Limits.MAX_BATCH_SIZE; i++) {
      batch.add(NewEvent.of("bulk").withId("bulk-" + i));
    }

    List<Event> stored = store.events().appendAll(id("bulk"), batch);

    assertThat(stored).hasSize(Limits.MAX_BATCH_SIZE);
    assertThat(stored.get(stored.size() - 1).seq()).isEqualTo(Limits.MAX_BATCH_SIZE);
  }

  @Test
  @Tag("guarantee-15")
  @Tag("guarantee-4")
  @DisplayName("A batch holding null is rejected naming the element, and none of its other events is stored")
  void nullElementInABatchIsRejected() {
    List<NewEvent> lateNull = Arrays.asList(event("n-1"), event("n-2"), null);
    List<NewEvent> onlyNull = Arrays.asList((NewEvent) null);

    assertRejected("appendAll with a null last element", "events[",
        () -> store.events().appendAll(SEED, lateNull));
    assertRejected("appendAll with a null last element and an expected seq", "events[",
        () -> store.events().appendAll(SEED, lateNull, store.events().lastSeq(SEED)));
    assertRejected("appendAll of [null] to a new session", "events[",
        () -> store.events().appendAll("new-session", onlyNull));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Null events, batches, queries, writes, statuses and unwrap types are rejected, naming the parameter")
  void nullArgumentsAreRejected() {
    assertRejected("append(sessionId, null)", "event", () -> store.events().append(SEED, null));
    assertRejected("append(sessionId, null, expectedLastSeq)", "event", () -> store.events().append(SEED, null, 3));
    assertRejected("appendAll(sessionId, null)", "events", () -> store.events().appendAll(SEED, null));
    assertRejected("appendAll(sessionId, null, expectedLastSeq)", "events",
        () -> store.events().appendAll(SEED, null, 3));
    assertRejected("read(sessionId, null)", "query", () -> store.events().read(SEED, null));
    assertRejected("sessions().save(null)", "session", () -> store.sessions().save(null));
    assertRejected("sessions().list(null)", "query", () -> store.sessions().list(null));
    assertRejected("runs().save(null)", "run", () -> store.runs().save(null));
    assertRejected("runs().list(sessionId, null)", "status", () -> store.runs().list(SEED, null));
    assertRejected("commit(null)", "step", () -> store.commit(null));
    assertRejected("unwrap(null)", "type", () -> store.unwrap(null));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("A waiting read rejects a null query, a null timeout and a negative timeout")
  void badWaitingReadArgumentsAreRejected() {
    assumeDeclared(Capability.WAITING_READS);

    assertRejected("await(sessionId, null, timeout)", "query",
        () -> store.events().await(SEED, null, Duration.ZERO));
    assertRejected("await(sessionId, query, null)", "timeout",
        () -> store.events().await(SEED, EventQuery.all(), null));
    assertRejected("await(sessionId, query, -1s)", "timeout",
        () -> store.events().await(SEED, EventQuery.all().after(99), Duration.ofSeconds(-1)));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Zero or negative limits and bounds are rejected when the query is built, naming the field")
  void limitsAndBoundsBelowTheirMinimumAreRejected() {
    List<Map.Entry<String, ThrowingCallable>> queries = List.of(
        Map.entry("limit", () -> EventQuery.all().limit(0)),
        Map.entry("limit", () -> EventQuery.all().first(-1)),
        Map.entry("limit", () -> EventQuery.all().last(0)),
        Map.entry("before", () -> EventQuery.all().before(0)),
        Map.entry("after", () -> EventQuery.all().after(-1)),
        Map.entry("limit", () -> SessionQuery.all().limit(0)),
        Map.entry("offset", () -> SessionQuery.all().offset(-1)));

    for (Map.Entry<String, ThrowingCallable> query : queries) {
      Throwable thrown = catchThrowable(query.getValue());
      assertThat(thrown).as("building a query with a bad %s", query.getKey())
          .isInstanceOf(InvalidArgumentException.class);
      assertThat(((InvalidArgumentException) thrown).field()).isEqualTo(query.getKey());
    }
    assertServing("building bad queries");
  }
}
