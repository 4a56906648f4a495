package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Events.ids;
import static dev.sessionstore.conformance.Events.range;
import static dev.sessionstore.conformance.Events.readAll;
import static dev.sessionstore.conformance.Events.seqs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionWrite;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Event appends: per-session sequencing (guarantee 1 of docs/guarantees.md), immutability (2), idempotent replays (3),
 * atomic batches (4) and the expected last seq (5).
 *
 * <p>The duplicate rule the kit checks: an id the session already stores, with equal content, stores nothing and
 * returns the stored event (same seq, same timestamp); with different content it fails with
 * {@link DuplicateEventException} and nothing of the batch is stored. The expected-seq check applies only when the
 * batch stores at least one new event, so an exact replay with a stale expected seq returns the stored events.
 *
 * <p>If this fails, check: that the seq is assigned under the same per-session lock or transaction that checks for
 * stored ids and the expected seq, and only for events that are really new (a replay must not consume a seq); that
 * a batch is checked completely (in-batch duplicates, stored duplicates, expected seq) before anything is written,
 * or written in one transaction that is rolled back on failure, implicit session creation included; and that the
 * content comparison uses {@link dev.sessionstore.spi.EventBatch#sameContent} (JSON compared as values, timestamp only
 * when given).
 */
public abstract class EventAppendContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected EventAppendContract(SessionStoreConformance kit) {
    super(kit);
  }

  private EventLog log() {
    return store.events();
  }

  private List<Event> appendEach(String sessionId, String... eventIds) {
    List<Event> stored = new ArrayList<>();
    for (String eventId : eventIds) {
      stored.add(log().append(sessionId, event(eventId)));
    }
    return stored;
  }

  /** {@code count} new events with ids {@code prefix-1 .. prefix-count}. */
  private static List<NewEvent> batch(String prefix, int count) {
    List<NewEvent> events = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      events.add(event(prefix + "-" + i));
    }
    return events;
  }

  // ---------------------------------------------------------------- sequencing

  @Test
  @Tag("guarantee-1")
  @DisplayName("Seqs start at 1 and grow by exactly 1 per append")
  void seqsStartAtOneAndGrowByOne() {
    String session = id("s");

    List<Event> stored = appendEach(session, "a", "b", "c", "d", "e");

    assertThat(seqs(stored)).as("seqs returned by five appends").containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(5);
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("lastSeq is 0 for an unknown session and for a session without events")
  void lastSeqIsZeroForUnknownAndEmptySessions() {
    String empty = id("s");
    store.sessions().save(SessionWrite.of(empty));

    assertThat(log().lastSeq("never-seen")).as("lastSeq of an unknown session").isZero();
    assertThat(log().lastSeq(empty)).as("lastSeq of a session without events").isZero();
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("Each session has its own sequence, whatever the interleaving of appends")
  void sequencesArePerSession() {
    String first = id("s");
    String second = id("s");

    List<Long> firstSeqs = new ArrayList<>();
    List<Long> secondSeqs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      firstSeqs.add(log().append(first, event("e-" + i)).seq());
      secondSeqs.add(log().append(second, event("e-" + i)).seq());
      secondSeqs.add(log().append(second, event("f-" + i)).seq());
    }

    assertThat(firstSeqs).containsExactlyElementsOf(range(1, 4));
    assertThat(secondSeqs).containsExactlyElementsOf(range(1, 8));
    assertThat(log().lastSeq(first)).as("lastSeq of %s", first).isEqualTo(4);
    assertThat(log().lastSeq(second)).as("lastSeq of %s", second).isEqualTo(8);
  }

  @Test
  @Tag("guarantee-6")
  @DisplayName("An append returns the event exactly as a later read and find return it")
  void appendReturnsTheEventAsStored() {
    String session = id("s");
    clock.advance(Duration.ofMillis(1234));
    NewEvent input = NewEvent.of("user_message", json("{\"text\":\"hi\",\"n\":[1,2.5,true,null]}"))
        .withId("m-1");

    Event stored = log().append(session, input);

    assertThat(stored.sessionId()).isEqualTo(session);
    assertThat(stored.seq()).as("seq of %s", stored.id()).isEqualTo(1);
    assertThat(stored.id()).isEqualTo("m-1");
    assertThat(stored.type()).isEqualTo("user_message");
    assertThat(stored.payload()).isEqualTo(json("{\"text\":\"hi\",\"n\":[1,2.5,true,null]}"));
    assertThat(stored.timestamp()).isEqualTo(TestClock.START.plusMillis(1234));
    assertThat(readAll(log(), session)).as("read after append").containsExactly(stored);
    assertThat(log().find(session, "m-1")).as("find after append").contains(stored);
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("A batch gets consecutive seqs in input order, continuing the log")
  void batchGetsConsecutiveSeqsInInputOrder() {
    String session = id("s");
    appendEach(session, "a", "b");

    List<Event> stored = log().appendAll(session, List.of(event("z"), event("y"), event("x")));

    assertThat(ids(stored)).as("ids returned, in input order").containsExactly("z", "y", "x");
    assertThat(seqs(stored)).as("seqs returned").containsExactly(3L, 4L, 5L);
    assertThat(readAll(log(), session).subList(2, 5)).as("read of the batch").containsExactlyElementsOf(stored);
  }

  @Test
  @DisplayName("Appending implicitly creates the session, with a single append, a batch or an expected seq of 0")
  void appendingCreatesTheSession() {
    String single = id("s");
    String batch = id("s");
    String expected = id("s");

    log().append(single, event("a"));
    log().appendAll(batch, List.of(event("a"), event("b")));
    log().append(expected, event("a"), 0);

    for (String session : List.of(single, batch, expected)) {
      assertThat(store.sessions().find(session)).as("session %s after its first append", session).isPresent();
      assertThat(store.sessions().find(session).orElseThrow().status()).isEqualTo(SessionStatus.ACTIVE);
    }
  }

  // ---------------------------------------------------------------- timestamps and fields

  @Test
  @DisplayName("An event without a timestamp is stamped with the store's clock at append")
  void clockStampsEventsWithoutATimestamp() {
    String session = id("s");
    Event first = log().append(session, event("a"));
    clock.advance(Duration.ofSeconds(7));
    Event second = log().append(session, event("b"));
    clock.advance(Duration.ofSeconds(1));
    List<Event> batch = log().appendAll(session, List.of(event("c"), event("d")));

    assertThat(first.timestamp()).isEqualTo(TestClock.START);
    assertThat(second.timestamp()).isEqualTo(TestClock.START.plusSeconds(7));
    assertThat(batch).extracting(Event::timestamp).containsOnly(TestClock.START.plusSeconds(8));
    assertThat(readAll(log(), session)).extracting(Event::timestamp).containsExactly(
        TestClock.START, TestClock.START.plusSeconds(7), TestClock.START.plusSeconds(8),
        TestClock.START.plusSeconds(8));
  }

  @Test
  @DisplayName("A given timestamp is kept, to the microsecond, even when it is earlier than the previous event's")
  void givenTimestampIsKept() {
    String session = id("s");
    Instant past = Instant.parse("2001-02-03T04:05:06.789012Z");
    log().append(session, event("a"));

    Event stored = log().append(session, event("b").withTimestamp(Instant.parse("2001-02-03T04:05:06.789012345Z")));

    assertThat(stored.timestamp()).isEqualTo(past);
    assertThat(log().find(session, "b").orElseThrow().timestamp()).as("timestamp read back").isEqualTo(past);
    assertThat(stored.seq()).as("seq does not follow the timestamp").isEqualTo(2);
  }

  @Test
  @DisplayName("A clock reading between two microseconds stamps events with the microsecond before it, as read back")
  void clockBetweenMicrosecondsIsTruncated() {
    String session = id("s");
    Instant microsecond = TestClock.START.plusSeconds(3).plusNanos(123_456_000);
    clock.set(microsecond.plusNanos(999));

    Event single = log().append(session, event("a"));
    List<Event> batch = log().appendAll(session, List.of(event("b"), event("c")));

    assertThat(single.timestamp()).as("the stamped timestamp, truncated to the microsecond").isEqualTo(microsecond);
    assertThat(batch).extracting(Event::timestamp).as("the stamped timestamp, truncated to the microsecond")
        .containsOnly(microsecond);
    assertThat(readAll(log(), session)).extracting(Event::timestamp).as("timestamps read back")
        .containsOnly(microsecond);
  }

  @Test
  @DisplayName("Run id, agent id and parent id round-trip through append, batch, read and find")
  void optionalFieldsRoundTrip() {
    String session = id("s");
    NewEvent root = NewEvent.of("user_message", json("{\"text\":\"q\"}")).withId("root")
        .withRunId("run-1").withAgentId("planner");
    NewEvent child = NewEvent.of("tool_call", json("{\"tool\":\"search\"}")).withId("child")
        .withRunId("run-1").withAgentId("coder").withParentId("root");

    Event storedRoot = log().append(session, root);
    Event storedChild = log().appendAll(session, List.of(child)).get(0);

    assertThat(storedRoot.runId()).isEqualTo("run-1");
    assertThat(storedRoot.agentId()).isEqualTo("planner");
    assertThat(storedRoot.parentId()).isNull();
    assertThat(storedChild.runId()).isEqualTo("run-1");
    assertThat(storedChild.agentId()).isEqualTo("coder");
    assertThat(storedChild.parentId()).isEqualTo("root");
    assertThat(storedChild.type()).isEqualTo("tool_call");
    assertThat(readAll(log(), session)).as("events read back from %s", session)
        .containsExactly(storedRoot, storedChild);
    assertThat(log().find(session, "child")).contains(storedChild);
  }

  @Test
  @DisplayName("Absent optional fields come back as null, not as empty strings")
  void absentOptionalFieldsStayNull() {
    String session = id("s");

    log().append(session, NewEvent.of("note").withId("plain"));

    Event read = readAll(log(), session).get(0);
    assertThat(read.runId()).isNull();
    assertThat(read.agentId()).isNull();
    assertThat(read.parentId()).isNull();
    assertThat(read.payload()).as("payload of an event appended without one").isEqualTo(json("{}"));
  }

  @Test
  @DisplayName("Event ids are byte-exact: ids differing in case, spacing or normalization are different events")
  void eventIdsAreByteExact() {
    String session = id("s");

    List<Event> stored = appendEach(session, "msg-a", "MSG-A", "msg-a ", "caf\u00e9", "cafe\u0301");

    assertThat(seqs(stored)).as("each lookalike id is a new event").containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(log().find(session, "Msg-A")).isEmpty();
    assertThat(log().find(session, "cafe\u0301").map(Event::seq)).contains(5L);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("One event id in two sessions is two independent events")
  void eventIdsAreScopedToTheirSession() {
    String first = id("s");
    String second = id("s");
    log().append(first, event("x"));

    Event other = log().append(second, NewEvent.of("other_type", json("{\"different\":true}")).withId("shared"));
    Event same = log().append(first, NewEvent.of("message", json("{\"n\":1}")).withId("shared"));

    assertThat(other.seq()).as("seq of %s", other.id()).isEqualTo(1);
    assertThat(same.seq()).as("seq of %s", same.id()).isEqualTo(2);
    assertThat(log().find(second, "shared").orElseThrow().type()).isEqualTo("other_type");
    assertThat(log().find(first, "shared").orElseThrow().type()).isEqualTo("message");
  }

  // ---------------------------------------------------------------- idempotency

  @Test
  @Tag("guarantee-3")
  @DisplayName("Appending an event again returns the stored event, same seq and timestamp, and stores nothing")
  void replayReturnsTheStoredEvent() {
    String session = id("s");
    NewEvent input = event("once");
    Event first = log().append(session, input);
    clock.advance(Duration.ofSeconds(30));

    Event again = log().append(session, input);

    assertThat(again).as("result of the replay").isEqualTo(first);
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(1);
    assertThat(readAll(log(), session)).as("events read back from %s", session).containsExactly(first);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Replaying an early event after later ones returns its original seq")
  void replayOfAnEarlyEventKeepsItsSeq() {
    String session = id("s");
    List<Event> stored = appendEach(session, "a", "b", "c");

    Event again = log().append(session, event("a"));

    assertThat(again).as("result of the replay").isEqualTo(stored.get(0));
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(3);
  }

  @Test
  @Tag("guarantee-1")
  @Tag("guarantee-3")
  @DisplayName("A replay does not consume a seq: the next new event gets the next seq")
  void replayDoesNotConsumeASeq() {
    String session = id("s");
    log().append(session, event("a"));
    log().append(session, event("a"));
    log().appendAll(session, List.of(event("a")));

    Event next = log().append(session, event("b"));

    assertThat(next.seq()).as("seq of the first new event after replays").isEqualTo(2);
    assertThat(seqs(readAll(log(), session))).as("seqs read back from %s", session).containsExactly(1L, 2L);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("A replay with the same JSON written differently (spacing, key order, number notation) is a replay")
  void replayComparesPayloadsAsJsonValues() {
    String session = id("s");
    Event first = log().append(session,
        NewEvent.of("message", json("{\"a\":1,\"b\":[1,2],\"c\":{\"x\":\"y\"}}")).withId("fmt"));

    Event again = log().append(session,
        NewEvent.of("message", json("{ \"c\" : {\"x\":\"y\"}, \"b\" : [1, 2.0], \"a\" : 1e0 }")).withId("fmt"));

    assertThat(again).as("result of the replay").isEqualTo(first);
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(1);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("A replay that gives the stored timestamp, or leaves it to the store, is a replay")
  void replayWithTheStoredOrNoTimestampIsAReplay() {
    String session = id("s");
    Instant given = Instant.parse("2029-06-01T12:00:00.000001Z");
    Event stamped = log().append(session, event("given").withTimestamp(given));
    Event clocked = log().append(session, event("clocked"));
    clock.advance(Duration.ofHours(1));

    assertThat(log().append(session, event("given").withTimestamp(given))).isEqualTo(stamped);
    assertThat(log().append(session, event("given"))).as("replay leaving the timestamp to the store")
        .isEqualTo(stamped);
    assertThat(log().append(session, event("clocked").withTimestamp(TestClock.START)))
        .as("replay giving the timestamp the store had stamped").isEqualTo(clocked);
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(2);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Identical duplicates inside one batch are stored once and returned at every position")
  void identicalDuplicatesInABatchAreStoredOnce() {
    String session = id("s");

    List<Event> stored = log().appendAll(session, List.of(event("a"), event("b"), event("a"), event("b")));

    assertThat(seqs(stored)).as("seqs returned").containsExactly(1L, 2L, 1L, 2L);
    assertThat(stored.get(2)).isEqualTo(stored.get(0));
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(2);
    assertThat(ids(readAll(log(), session))).as("event ids read back from %s", session).containsExactly("a", "b");
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("An exact replay of a whole batch returns the stored events and stores nothing")
  void exactReplayOfABatchReturnsTheStoredEvents() {
    String session = id("s");
    List<NewEvent> input = batch("b", 4);
    List<Event> first = log().appendAll(session, input);
    clock.advance(Duration.ofMinutes(1));

    List<Event> again = log().appendAll(session, input);

    assertThat(again).as("result of the replay").isEqualTo(first);
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(4);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("A batch mixing stored and new ids keeps the stored seqs and gives the new events consecutive seqs in"
      + " input order")
  void mixedBatchKeepsOldSeqsAndAppendsNewOnes() {
    String session = id("s");
    List<Event> old = appendEach(session, "a", "b");

    List<Event> result = log().appendAll(session,
        List.of(event("x"), event("a"), event("y"), event("b"), event("z")));

    assertThat(ids(result)).as("ids returned, in input order").containsExactly("x", "a", "y", "b", "z");
    assertThat(seqs(result)).as("seqs in input order").containsExactly(3L, 1L, 4L, 2L, 5L);
    assertThat(result.get(1)).isEqualTo(old.get(0));
    assertThat(result.get(3)).isEqualTo(old.get(1));
    assertThat(ids(readAll(log(), session))).as("event ids read back from %s", session)
        .containsExactly("a", "b", "x", "y", "z");
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Different content under a stored id is a duplicate-id error naming the id, and the stored event stays")
  void differentContentUnderAStoredIdIsADuplicate() {
    String session = id("s");
    Event original = log().append(session, event("dup"));

    DuplicateEventException error = catchThrowableOfType(DuplicateEventException.class,
        () -> log().append(session, NewEvent.of("message", json("{\"n\":\"other\"}")).withId("dup")));

    assertThat(error).as("error for a reused id with another payload").isNotNull();
    assertThat(error.eventId()).isEqualTo("dup");
    assertThat(error.sessionId()).isEqualTo(session);
    assertThat(readAll(log(), session)).as("events read back from %s", session).containsExactly(original);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Every content field counts: another type, run, agent, parent, payload or timestamp is a duplicate")
  void everyContentFieldCountsForDuplicates() {
    String session = id("s");
    Instant at = Instant.parse("2029-01-01T00:00:00Z");
    NewEvent original = NewEvent.of("message", json("{\"n\":1}")).withId("e")
        .withRunId("r").withAgentId("a").withParentId("p").withTimestamp(at);
    Event stored = log().append(session, original);

    Map<String, NewEvent> variants = Map.of(
        "type", new NewEvent("e", "other", "r", "a", "p", json("{\"n\":1}"), at),
        "runId", new NewEvent("e", "message", "r2", "a", "p", json("{\"n\":1}"), at),
        "no runId", new NewEvent("e", "message", null, "a", "p", json("{\"n\":1}"), at),
        "agentId", new NewEvent("e", "message", "r", "b", "p", json("{\"n\":1}"), at),
        "parentId", new NewEvent("e", "message", "r", "a", "q", json("{\"n\":1}"), at),
        "payload", new NewEvent("e", "message", "r", "a", "p", json("{\"n\":2}"), at),
        "payload number type", new NewEvent("e", "message", "r", "a", "p", json("{\"n\":\"1\"}"), at),
        "timestamp", new NewEvent("e", "message", "r", "a", "p", json("{\"n\":1}"), at.plusNanos(1000)));

    variants.forEach((field, variant) -> {
      DuplicateEventException error = catchThrowableOfType(DuplicateEventException.class,
          () -> log().append(session, variant));
      assertThat(error).as("replay with a different %s", field).isNotNull();
      assertThat(error.eventId()).isEqualTo("e");
    });
    assertThat(readAll(log(), session)).as("events read back from %s", session).containsExactly(stored);
  }

  @Test
  @Tag("guarantee-3")
  @Tag("guarantee-4")
  @DisplayName("A batch reusing a stored id with different content stores none of its events")
  void batchWithAConflictingStoredIdStoresNothing() {
    String session = id("s");
    List<Event> before = appendEach(session, "a", "b");

    DuplicateEventException error = catchThrowableOfType(DuplicateEventException.class,
        () -> log().appendAll(session, List.of(event("x"), event("y"),
            NewEvent.of("message", json("{\"changed\":true}")).withId("a"))));

    assertThat(error).as("error for the batch").isNotNull();
    assertThat(error.eventId()).isEqualTo("a");
    assertThat(readAll(log(), session)).as("log after the failed batch").containsExactlyElementsOf(before);
    assertThat(log().find(session, "x")).isEmpty();
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(2);
  }

  @Test
  @Tag("guarantee-3")
  @Tag("guarantee-4")
  @DisplayName("Two different events with one id in a batch are a duplicate-id error and store nothing, not even the"
      + " session")
  void twoDifferentEventsWithOneIdInABatchStoreNothing() {
    String session = id("s");

    DuplicateEventException error = catchThrowableOfType(DuplicateEventException.class,
        () -> log().appendAll(session, List.of(event("x"), event("twin"),
            NewEvent.of("other", json("{}")).withId("twin"))));

    assertThat(error).as("error for the batch").isNotNull();
    assertThat(error.eventId()).isEqualTo("twin");
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isZero();
    assertThat(readAll(log(), session)).as("events read back from %s", session).isEmpty();
    assertThat(store.sessions().find(session)).as("session of the failed first batch").isEmpty();
  }

  @Test
  @Tag("guarantee-4")
  @DisplayName("A long batch whose last member is a conflicting duplicate stores none of the earlier members, and the"
      + " next append continues gaplessly")
  void batchWithABadLastMemberIsAllOrNothing() {
    String session = id("s");
    appendEach(session, "a", "b", "c");
    List<NewEvent> input = new ArrayList<>(batch("n", 50));
    input.add(NewEvent.of("message", json("{\"n\":\"not b\"}")).withId("b"));

    DuplicateEventException error = catchThrowableOfType(DuplicateEventException.class,
        () -> log().appendAll(session, input));

    assertThat(error).as("error for the batch").isNotNull();
    assertThat(log().lastSeq(session)).as("lastSeq after the failed batch").isEqualTo(3);
    assertThat(ids(readAll(log(), session))).as("log after the failed batch").containsExactly("a", "b", "c");
    assertThat(log().find(session, "n-1")).as("first member of the failed batch").isEmpty();

    Event next = log().append(session, event("after"));
    assertThat(next.seq()).as("seq of the next append").isEqualTo(4);
    assertThat(log().appendAll(session, batch("n", 2))).extracting(Event::seq).containsExactly(5L, 6L);
  }

  @Test
  @DisplayName("An empty batch stores nothing, returns an empty list and does not create the session")
  void emptyBatchStoresNothing() {
    String session = id("s");
    String existing = id("s");
    appendEach(existing, "a");

    assertThat(log().appendAll(session, List.of())).isEmpty();
    assertThat(log().appendAll(existing, List.of())).isEmpty();

    assertThat(log().lastSeq(existing)).as("lastSeq of %s", existing).isEqualTo(1);
    assertThat(store.sessions().find(session)).as("session after an empty batch").isEmpty();
  }

  // ---------------------------------------------------------------- expected seq

  @Test
  @Tag("guarantee-5")
  @DisplayName("An append expecting the seq the log ends at is stored")
  void matchingExpectedSeqAppends() {
    String session = id("s");
    appendEach(session, "a", "b");

    Event single = log().append(session, event("c"), 2);
    List<Event> batch = log().appendAll(session, List.of(event("d"), event("e")), 3);

    assertThat(single.seq()).as("seq of %s", single.id()).isEqualTo(3);
    assertThat(seqs(batch)).as("seqs returned").containsExactly(4L, 5L);
  }

  @Test
  @Tag("guarantee-5")
  @DisplayName("Expecting 0 appends to an unknown session and to a session without events")
  void expectedZeroOnAnEmptyLogAppends() {
    String unknown = id("s");
    String empty = id("s");
    store.sessions().save(SessionWrite.of(empty));

    assertThat(log().append(unknown, event("a"), 0).seq()).isEqualTo(1);
    assertThat(seqs(log().appendAll(empty, List.of(event("a"), event("b")), 0))).containsExactly(1L, 2L);
  }

  @Test
  @Tag("guarantee-5")
  @DisplayName("An expected seq behind or ahead of the log is a conflict carrying both seqs, and stores nothing")
  void expectedSeqMismatchIsAConflict() {
    String session = id("s");
    appendEach(session, "a", "b", "c");

    for (long expected : new long[] {0, 2, 4, 10}) {
      SeqConflictException error = catchThrowableOfType(SeqConflictException.class,
          () -> log().append(session, event("new-" + expected), expected));
      assertThat(error).as("error for expected seq %d with the log at 3", expected).isNotNull();
      assertThat(error.expectedSeq()).as("expectedSeq").isEqualTo(expected);
      assertThat(error.actualSeq()).as("actualSeq").isEqualTo(3);
      assertThat(error.sessionId()).isEqualTo(session);
    }
    assertThat(ids(readAll(log(), session))).as("event ids read back from %s", session).containsExactly("a", "b", "c");
  }

  @Test
  @Tag("guarantee-5")
  @Tag("guarantee-4")
  @DisplayName("A batch with a stale expected seq stores none of its events")
  void batchWithAStaleExpectedSeqStoresNothing() {
    String session = id("s");
    appendEach(session, "a", "b", "c");

    SeqConflictException error = catchThrowableOfType(SeqConflictException.class,
        () -> log().appendAll(session, batch("n", 5), 1));

    assertThat(error).as("error for the batch").isNotNull();
    assertThat(error.expectedSeq()).isEqualTo(1);
    assertThat(error.actualSeq()).isEqualTo(3);
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(3);
    assertThat(log().find(session, "n-1")).isEmpty();
    assertThat(log().append(session, event("d"), 3).seq()).as("retry with the actual seq").isEqualTo(4);
  }

  @Test
  @Tag("guarantee-5")
  @DisplayName("Expecting a seq above 0 on an unknown session is a conflict with actual 0 and creates nothing")
  void expectedSeqOnAnUnknownSessionIsAConflict() {
    String session = id("s");

    SeqConflictException error = catchThrowableOfType(SeqConflictException.class,
        () -> log().append(session, event("a"), 1));

    assertThat(error).as("error for expected seq 1 on an unknown session").isNotNull();
    assertThat(error.expectedSeq()).isEqualTo(1);
    assertThat(error.actualSeq()).isZero();
    assertThat(store.sessions().find(session)).as("session after the conflict").isEmpty();
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isZero();
  }

  @Test
  @Tag("guarantee-5")
  @Tag("guarantee-3")
  @DisplayName("Replaying stored events with a stale expected seq returns them: the check applies only to new events")
  void replayWithAStaleExpectedSeqReturnsTheStoredEvents() {
    String session = id("s");
    List<Event> first = log().appendAll(session, List.of(event("a"), event("b")), 0);
    Event single = log().append(session, event("c"), 2);
    appendEach(session, "d");

    assertThat(log().appendAll(session, List.of(event("a"), event("b")), 0)).isEqualTo(first);
    assertThat(log().append(session, event("c"), 2)).isEqualTo(single);
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(4);
  }

  @Test
  @Tag("guarantee-5")
  @DisplayName("A batch mixing stored and new events with a stale expected seq is a conflict and stores nothing")
  void mixedBatchWithAStaleExpectedSeqIsAConflict() {
    String session = id("s");
    appendEach(session, "a", "b");

    SeqConflictException error = catchThrowableOfType(SeqConflictException.class,
        () -> log().appendAll(session, List.of(event("a"), event("new")), 1));

    assertThat(error).as("error for the mixed batch").isNotNull();
    assertThat(error.actualSeq()).isEqualTo(2);
    assertThat(log().find(session, "new")).isEmpty();
  }

  @Test
  @Tag("guarantee-5")
  @DisplayName("An empty batch with any expected seq stores nothing and is not a conflict")
  void emptyBatchWithAnyExpectedSeqIsNotAConflict() {
    String session = id("s");
    appendEach(session, "a");

    assertThat(log().appendAll(session, List.of(), 7)).isEmpty();
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(1);
  }

  @Test
  @Tag("guarantee-2")
  @DisplayName("Lists returned by appendAll cannot be modified")
  void returnedBatchListIsUnmodifiable() {
    String session = id("s");
    List<Event> stored = log().appendAll(session, List.of(event("a"), event("b")));

    assertThat(stored).as("list returned by appendAll").isUnmodifiable();
    assertThat(readAll(log(), session)).hasSize(2);
  }
}
