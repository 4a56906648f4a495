package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.ModelCall;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Session;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.Expiry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lossless export and import ({@link dev.sessionstore.Archives}): a session exported from one store and imported
 * into a fresh store of the same adapter exports identically there, every entity and timestamp included; importing
 * twice changes nothing; an import over a different session, or an invalid archive, writes nothing of it; a fork's
 * archive needs no parent; events keep their ids and seqs; a pending tool call stays pending with its deadline and
 * expires by it. Requires {@link Capability#ARCHIVES}; the parts about tool calls, deadlines, summaries, forks,
 * truncation, checkpoints, tenants and the audit run when the store declares them.
 *
 * <p>If this fails, check: that an import writes every field as archived instead of stamping the store's clock (the
 * session's, runs' and tool calls' timestamps, a checkpoint's time, an event's seq); that it runs in one transaction
 * and checks for an existing session and a taken name before writing; that an existing session is compared with the
 * archive, not overwritten; that an export reads everything in one view, tool calls of every status included; and
 * that a fork is imported with its own log and its origin as data, without looking its parent up.
 */
public abstract class ArchiveContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected ArchiveContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.ARCHIVES);
  }

  /**
   * A session with something of everything the store supports, written over several clock ticks: named, tenanted,
   * paused, with settings and metadata; events of several agents and runs, one with its own timestamp; runs
   * completed, failed and waiting; tool calls completed, cancelled, expired, pending and pending with a deadline,
   * one whose requesting event was cut from the log; a summary; a checkpoint; audit rows.
   */
  private String richSession() {
    String sessionId = id("rich");
    SessionWrite write = SessionWrite.of(sessionId).withName(id("name")).withAgentId("planner")
        .withStatus(SessionStatus.of("waiting_for_human"))
        .withSettings(json("{\"model\": \"m-1\", \"resume_policy\": \"eager\", \"budget\": 1.50}"))
        .withMetadata(Map.of("customer", "c-981", "channel", "mail"))
        .withExpiresAt(clock.instant().plus(Duration.ofDays(30)).plusNanos(123_456_000));
    if (store.supports(Capability.TENANTS)) {
      write = write.withTenant("acme");
    }
    store.sessions().save(write);
    tick();
    store.runs().save(RunWrite.of("run-1", sessionId).withStatus(RunStatus.RUNNING));
    List<NewEvent> events = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      NewEvent event = NewEvent.of(i % 2 == 1 ? "user_message" : "assistant_message",
              json("{\"text\": \"turn " + i + "\", \"n\": " + i + "e0}"))
          .withId("e-" + i).withRunId(i <= 4 ? "run-1" : "run-2").withAgentId(i % 2 == 0 ? "coder" : "planner");
      events.add(i == 1 ? event : event.withParentId("e-" + (i - 1)));
    }
    events.set(2, events.get(2).withTimestamp(TestClock.START.minus(Duration.ofDays(3))));
    store.events().appendAll(sessionId, events.subList(0, 4));
    tick();
    store.runs().save(RunWrite.of("run-1", sessionId).withStatus(RunStatus.COMPLETED)
        .withUsage(json("{\"tokens\": 1234}")));
    store.runs().save(RunWrite.of("run-2", sessionId).withStatus(RunStatus.FAILED)
        .withError(json("{\"reason\": \"timeout\"}")));
    store.events().appendAll(sessionId, events.subList(4, 8));
    tick();
    store.runs().save(RunWrite.of("run-3", sessionId).withStatus(RunStatus.WAITING));
    if (store.supports(Capability.TOOL_CALLS)) {
      addToolCalls(sessionId);
    }
    if (store.supports(Capability.SUMMARIES)) {
      store.summaries().put(sessionId, NewSummary.of(1, 4, json("{\"gist\": \"the first four turns\"}")));
      tick();
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      store.checkpoints().put(CheckpointKey.of(sessionId, "turn-state"), new byte[] {0, 1, 2, (byte) 0xff});
      tick();
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      store.modelCalls().record(sessionId, NewModelCall.of(1, "m-1", json("{\"messages\": []}")));
      tick();
      store.modelCalls().record(sessionId, new NewModelCall(2, "m-1", json("{\"messages\": [1]}"),
          json("{\"tokens\": 7}")));
    }
    tick();
    store.sessions().mergeMetadata(sessionId, Map.of("channel", "chat"));
    tick();
    return sessionId;
  }

  private void addToolCalls(String sessionId) {
    store.toolCalls().save(ToolCallWrite.of("call-done", sessionId, "search").withRunId("run-1")
        .withRequestEventId("e-2").withArguments(json("{\"q\": \"invoice\"}")));
    store.toolCalls().save(ToolCallWrite.of("call-cancelled", sessionId, "search").withRequestEventId("e-4"));
    store.toolCalls().save(ToolCallWrite.of("call-open", sessionId, "approve").withRequestEventId("e-6"));
    tick();
    store.toolCalls().resolve(sessionId, "call-done", ToolCallStatus.COMPLETED, json("{\"hits\": 3}"));
    store.toolCalls().resolve(sessionId, "call-cancelled", ToolCallStatus.CANCELLED, null);
    if (store.supports(Capability.DEADLINES)) {
      store.toolCalls().save(ToolCallWrite.of("call-expired", sessionId, "approve")
          .withDeadline(clock.instant().plusSeconds(1)));
      store.toolCalls().save(ToolCallWrite.of("call-deadline", sessionId, "approve")
          .withDeadline(clock.instant().plus(Duration.ofHours(4))));
      tick();
      store.toolCalls().find(sessionId, "call-expired");
    }
    if (store.supports(Capability.TRUNCATION)) {
      store.events().append(sessionId, event("e-9"));
      store.toolCalls().save(ToolCallWrite.of("call-dangling", sessionId, "approve").withRequestEventId("e-9"));
      store.events().truncate(sessionId, 9);
    }
    tick();
  }

  private void tick() {
    clock.advance(Duration.ofSeconds(7).plusNanos(123_456_000));
  }

  private SessionArchive export(SessionStore from, String sessionId) {
    return present(from.archives().export(sessionId), "export of session %s", sessionId);
  }

  /** A session with {@code eventCount} events and nothing else, built by hand as a file would hold it. */
  private SessionArchive handMade(String sessionId, int eventCount) {
    Instant created = TestClock.START.minus(Duration.ofDays(30));
    List<Event> events = new ArrayList<>();
    for (int i = 1; i <= eventCount; i++) {
      events.add(new Event(sessionId, i, "m-" + i, "message", null, null, null, json("{\"i\": " + i + "}"),
          created.plusSeconds(i)));
    }
    Session session = new Session(sessionId, null, null, null, SessionStatus.COMPLETED, json("{}"),
        Map.of("source", "file"), null, created, created.plusSeconds(eventCount + 1L), null,
        eventCount);
    return new SessionArchive(session, events, List.of(), List.of(), List.of(), List.of(), List.of());
  }

  @Test
  @DisplayName("A session exported and imported into a fresh store exports identically there: every entity, field "
      + "and timestamp")
  void aRoundTripIntoAFreshStoreGivesAnIdenticalExport() {
    String sessionId = richSession();
    SessionArchive exported = export(store, sessionId);

    assertThat(exported.session()).as("exported session").isEqualTo(present(store.sessions().find(sessionId),
        "session %s", sessionId));
    assertThat(exported.events()).as("exported events").isEqualTo(Events.readAll(store.events(), sessionId));
    assertThat(exported.runs()).as("exported runs").isEqualTo(store.runs().list(sessionId));
    if (store.supports(Capability.TOOL_CALLS)) {
      assertThat(exported.toolCalls()).as("exported tool calls").extracting(ToolCall::id)
          .containsExactlyInAnyOrderElementsOf(store.supports(Capability.DEADLINES)
              ? store.supports(Capability.TRUNCATION)
                  ? List.of("call-done", "call-cancelled", "call-open", "call-expired", "call-deadline",
                      "call-dangling")
                  : List.of("call-done", "call-cancelled", "call-open", "call-expired", "call-deadline")
              : List.of("call-done", "call-cancelled", "call-open"));
      exported.toolCalls().forEach(call -> assertThat(store.toolCalls().find(sessionId, call.id()))
          .as("tool call %s", call.id()).contains(call));
    }
    if (store.supports(Capability.SUMMARIES)) {
      assertThat(exported.summaries()).as("exported summaries").isEqualTo(store.summaries().list(sessionId));
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      assertThat(exported.checkpoints()).as("exported checkpoints")
          .containsExactly(present(store.checkpoints().get(CheckpointKey.of(sessionId, "turn-state")), "checkpoint"));
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      assertThat(exported.modelCalls()).as("exported model calls").isEqualTo(store.modelCalls().list(sessionId));
    }

    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importSession(exported)).as("import into a fresh store")
          .isEqualTo(ImportOutcome.IMPORTED);

      assertThat(export(target, sessionId)).as("export of the imported session").isEqualTo(exported);
      assertThat(target.sessions().find(sessionId)).as("imported session").contains(exported.session());
      assertThat(target.sessions().findByName(exported.session().name())).as("imported session by name")
          .contains(exported.session());
      assertThat(Events.readAll(target.events(), sessionId)).as("imported events").isEqualTo(exported.events());
      assertThat(target.runs().active(sessionId)).as("active run of the imported session")
          .isEqualTo(store.runs().active(sessionId));
    }
  }

  @Test
  @DisplayName("An imported session keeps its expiry, and a query by expiry in the target store finds it")
  void anImportedSessionKeepsItsExpiry() {
    String sessionId = id("expiring");
    Instant expiry = clock.instant().minusSeconds(60).plusNanos(7_000);
    store.sessions().save(SessionWrite.of(sessionId).withExpiresAt(expiry));
    store.events().append(sessionId, event(id("e")));
    SessionArchive exported = export(store, sessionId);

    assertThat(exported.session().expiresAt()).as("expiry in the archive").isEqualTo(expiry);
    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importSession(exported)).isEqualTo(ImportOutcome.IMPORTED);

      assertThat(present(target.sessions().find(sessionId), "imported session").expiresAt())
          .as("expiry of the imported session").isEqualTo(expiry);
      assertThat(target.sessions().list(SessionQuery.all().expiresBefore(expiry.plusNanos(1_000))).items())
          .as("query by expiry in the target store").extracting(Session::id).containsExactly(sessionId);
      assertThat(target.sessions().list(SessionQuery.all().expiresBefore(expiry)).items())
          .as("query by an instant equal to the expiry").isEmpty();
    }
  }

  @Test
  @DisplayName("Importing the same archive twice stores it once: the second import is UNCHANGED and writes nothing")
  void importingTwiceChangesNothing() {
    String sessionId = richSession();
    SessionArchive exported = export(store, sessionId);

    assertThat(store.archives().importSession(exported)).as("import into the store it came from")
        .isEqualTo(ImportOutcome.UNCHANGED);
    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importSession(exported)).as("first import").isEqualTo(ImportOutcome.IMPORTED);
      tick();
      assertThat(target.archives().importSession(exported)).as("second import").isEqualTo(ImportOutcome.UNCHANGED);

      assertThat(export(target, sessionId)).as("export after the second import").isEqualTo(exported);
      assertThat(target.events().lastSeq(sessionId)).as("lastSeq after the second import")
          .isEqualTo(exported.lastSeq());
      if (store.supports(Capability.DEADLINES)) {
        clock.advance(Duration.ofHours(5));
        assertThat(target.archives().importSession(exported))
            .as("third import, after the deadline of the archive's pending call-deadline fired")
            .isEqualTo(ImportOutcome.UNCHANGED);
        assertThat(present(target.toolCalls().find(sessionId, "call-deadline"), "call-deadline").status())
            .as("status of call-deadline after the third import").isEqualTo(ToolCallStatus.EXPIRED);
      }
    }
  }

  /** A session with one event and two pending calls it requested, due in one and in three hours; exported. */
  private SessionArchive withTwoDeadlines(String sessionId) {
    store.events().append(sessionId, event("tool-use"));
    store.toolCalls().save(ToolCallWrite.of("call-1h", sessionId, "approve").withRequestEventId("tool-use")
        .withDeadline(clock.instant().plus(Duration.ofHours(1))));
    store.toolCalls().save(ToolCallWrite.of("call-3h", sessionId, "approve").withRequestEventId("tool-use")
        .withDeadline(clock.instant().plus(Duration.ofHours(3))));
    tick();
    return export(store, sessionId);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("An import run again after the archive's own deadlines fired in the store is UNCHANGED, and writes "
      + "nothing")
  void aRepeatedImportAfterTheArchivesDeadlinesFiredIsUnchanged() {
    assumeDeclared(Capability.DEADLINES);
    String sessionId = id("deadlines");
    SessionArchive exported = withTwoDeadlines(sessionId);

    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importSession(exported)).as("first import").isEqualTo(ImportOutcome.IMPORTED);
      clock.advance(Duration.ofHours(2));
      ToolCall fired = present(target.toolCalls().find(sessionId, "call-1h"), "call-1h after its deadline");
      assertThat(fired.status()).as("status of call-1h after its deadline").isEqualTo(ToolCallStatus.EXPIRED);
      SessionArchive afterFirstDeadline = export(target, sessionId);

      assertThat(target.archives().importSession(exported)).as("second import, after call-1h's deadline fired")
          .isEqualTo(ImportOutcome.UNCHANGED);
      assertThat(export(target, sessionId)).as("export after the second import").isEqualTo(afterFirstDeadline);
      assertThat(target.toolCalls().pending(sessionId)).as("pending calls after the second import")
          .extracting(ToolCall::id).containsExactly("call-3h");

      clock.advance(Duration.ofHours(2));
      assertThat(target.archives().importSession(exported))
          .as("third import, both deadlines passed and no read since").isEqualTo(ImportOutcome.UNCHANGED);
      ToolCall laterFired = present(target.toolCalls().find(sessionId, "call-3h"), "call-3h after its deadline");
      assertThat(laterFired.status()).as("status of call-3h after the third import")
          .isEqualTo(ToolCallStatus.EXPIRED);
      assertThat(laterFired.result()).as("result of call-3h").isEqualTo(Expiry.result(exported.toolCalls().stream()
          .filter(call -> call.id().equals("call-3h")).findFirst().orElseThrow().deadline()));
    }
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("An import run again over a pending call the store changed (its deadline moved, or resolved) is a "
      + "CONFLICT, also once the archive's deadline has passed")
  void aRepeatedImportOverAChangedCallIsAConflict() {
    assumeDeclared(Capability.DEADLINES);
    String sessionId = id("changed");
    SessionArchive exported = withTwoDeadlines(sessionId);

    try (SessionStore moved = otherStore()) {
      moved.archives().importSession(exported);
      moved.toolCalls().expireAt(sessionId, "call-1h", clock.instant().plus(Duration.ofMinutes(10)));
      clock.advance(Duration.ofHours(2));
      assertThat(present(moved.toolCalls().find(sessionId, "call-1h"), "call-1h").status())
          .as("status of call-1h after its moved deadline").isEqualTo(ToolCallStatus.EXPIRED);
      SessionArchive before = export(moved, sessionId);

      assertThat(moved.archives().importSession(exported))
          .as("import over call-1h expired early by a deadline the store moved").isEqualTo(ImportOutcome.CONFLICT);
      assertThat(export(moved, sessionId)).as("export after the conflicting import").isEqualTo(before);
    }
    try (SessionStore resolved = otherStore()) {
      resolved.archives().importSession(exported);
      resolved.toolCalls().resolve(sessionId, "call-3h", ToolCallStatus.COMPLETED, json("{\"ok\": true}"));
      clock.advance(Duration.ofHours(4));

      assertThat(resolved.archives().importSession(exported))
          .as("import over call-3h resolved in the store before its deadline").isEqualTo(ImportOutcome.CONFLICT);
      assertThat(present(resolved.toolCalls().find(sessionId, "call-3h"), "call-3h").status())
          .as("status of call-3h after the conflicting import").isEqualTo(ToolCallStatus.COMPLETED);
    }
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("A cut of the log drops the link of every tool call whose requesting event it removed, so the "
      + "session's archive imports; an archive naming an event its log lacks is rejected")
  void aCutDropsTheLinksToTheEventsItRemoved() {
    assumeDeclared(Capability.TRUNCATION, Capability.TOOL_CALLS);
    String sessionId = id("cut");
    store.events().appendAll(sessionId, List.of(event("e-1"), event("e-2"), event("e-3")));
    ToolCall kept = store.toolCalls().save(ToolCallWrite.of("call-kept", sessionId, "search")
        .withRequestEventId("e-1"));
    store.toolCalls().save(ToolCallWrite.of("call-cut", sessionId, "search").withRequestEventId("e-2"));
    store.toolCalls().save(ToolCallWrite.of("call-cut-in-step", sessionId, "search").withRequestEventId("e-3"));
    tick();

    assertThat(store.commit(Step.builder(sessionId).truncateFrom(3).event(event("e-3b")).build()).committed())
        .as("step cutting e-3").isPresent();
    assertThat(present(store.toolCalls().find(sessionId, "call-cut-in-step"), "call-cut-in-step").requestEventId())
        .as("requesting event of call-cut-in-step after the step cut it").isNull();
    assertThat(present(store.toolCalls().find(sessionId, "call-cut"), "call-cut").requestEventId())
        .as("requesting event of call-cut, which the step kept").isEqualTo("e-2");
    store.events().truncate(sessionId, 2);

    assertThat(store.toolCalls().find(sessionId, "call-kept")).as("call whose requesting event the cuts kept")
        .contains(kept);
    for (String cut : List.of("call-cut", "call-cut-in-step")) {
      ToolCall call = present(store.toolCalls().find(sessionId, cut), cut);
      assertThat(call.requestEventId()).as("requesting event of %s after its event was cut", cut).isNull();
      assertThat(call.status()).as("status of %s after the cut", cut).isEqualTo(ToolCallStatus.PENDING);
    }
    SessionArchive exported = export(store, sessionId);
    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importSession(exported)).as("import of the cut session")
          .isEqualTo(ImportOutcome.IMPORTED);
      assertThat(export(target, sessionId)).as("export of the imported cut session").isEqualTo(exported);

      String other = id("foreign");
      SessionArchive foreign = new SessionArchive(withId(exported.session(), other), List.of(
          new Event(other, 1, "e-1", "message", null, null, null, json("{}"), TestClock.START)), List.of(),
          List.of(new ToolCall("c", other, null, "e-2", "tool", Json.emptyObject(), ToolCallStatus.PENDING, null,
              null, TestClock.START, TestClock.START)), List.of(), List.of(), List.of());
      assertRejected("import of a call requested by an event its archive's log lacks",
          () -> target.archives().importSession(foreign), "archive.toolCalls[0].requestEventId");
      assertThat(target.sessions().find(other)).as("session of the rejected archive").isEmpty();
    }
  }

  @Test
  @DisplayName("An import over a different session with the same id, or taking another session's name, is a "
      + "CONFLICT and writes nothing")
  void importOverADifferentSessionWritesNothing() {
    String sessionId = richSession();
    SessionArchive exported = export(store, sessionId);
    try (SessionStore target = otherStore()) {
      target.events().append(sessionId, event("other-1"));
      SessionArchive before = export(target, sessionId);

      assertThat(target.archives().importSession(exported)).as("import over another session with the same id")
          .isEqualTo(ImportOutcome.CONFLICT);
      assertThat(export(target, sessionId)).as("the other session after the conflicting import").isEqualTo(before);

      String owner = id("owner");
      target.sessions().save(SessionWrite.of(owner).withName(exported.session().name()));
      SessionArchive renamed = new SessionArchive(withId(exported.session(), id("renamed")), List.of(), List.of(),
          List.of(), List.of(), List.of(), List.of());
      assertThat(target.archives().importSession(renamed)).as("import of a session whose name another one has")
          .isEqualTo(ImportOutcome.CONFLICT);
      assertThat(target.sessions().find(renamed.sessionId())).as("session whose name was taken").isEmpty();
      assertThat(target.sessions().findByName(exported.session().name()).map(Session::id))
          .as("owner of the name").contains(owner);
    }
  }

  private static Session withId(Session session, String id) {
    return new Session(id, session.name(), session.tenant(), session.agentId(), session.status(), session.settings(),
        session.metadata(), session.forkedFrom(), session.createdAt(), session.updatedAt(), session.expiresAt(),
        session.lastSeq());
  }

  @Test
  @Tag("guarantee-4")
  @DisplayName("An archive whose 500th event is invalid is rejected, naming it, and leaves nothing of its session")
  void anArchiveInvalidMidwayLeavesNothing() {
    String sessionId = id("midway");
    SessionArchive valid = handMade(sessionId, 600);
    List<Event> events = new ArrayList<>(valid.events());
    Event first = events.get(0);
    Event bad = events.get(499);
    events.set(499, new Event(sessionId, bad.seq(), first.id(), bad.type(), null, null, null, bad.payload(),
        bad.timestamp()));
    SessionArchive invalid = new SessionArchive(valid.session(), events, List.of(), List.of(), List.of(), List.of(),
        List.of());

    InvalidArgumentException rejected = catchThrowableOfType(() -> store.archives().importSession(invalid),
        InvalidArgumentException.class);

    assertThat(rejected).as("error of importing an archive whose 500th event reuses the first one's id").isNotNull();
    assertThat(rejected.field()).as("field the error names").startsWith("archive.events[499]");
    assertThat(store.sessions().find(sessionId)).as("session after the rejected import").isEmpty();
    assertThat(store.events().lastSeq(sessionId)).as("lastSeq after the rejected import").isZero();
    assertThat(store.archives().export(sessionId)).as("export after the rejected import").isEmpty();
    assertThat(store.archives().importSession(valid)).as("import of the valid archive afterwards")
        .isEqualTo(ImportOutcome.IMPORTED);
  }

  /** An invalid archive and the member its rejection must name. */
  private record Invalid(String what, String field, SessionArchive archive) {
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Archives that break a rule of the write operations or of a stored session are rejected, naming the "
      + "member, and write nothing")
  void invalidArchivesAreRejected() {
    String sessionId = id("invalid");
    SessionArchive valid = handMade(sessionId, 3);
    Session session = valid.session();
    List<Event> events = valid.events();
    Instant at = clock.instant();
    Event e1 = events.get(0);
    List<Invalid> cases = new ArrayList<>(List.of(
        new Invalid("an event of another session", "archive.events[0].sessionId", valid.withEvents(List.of(
            new Event("other", 1, "m-1", "message", null, null, null, e1.payload(), e1.timestamp())))),
        new Invalid("a gap in the seqs", "archive.events[1].seq", valid.withEvents(List.of(e1, events.get(2)))),
        new Invalid("a session forked from itself", "archive.session.forkedFrom", new SessionArchive(
            new Session(sessionId, null, null, null, session.status(), session.settings(), session.metadata(),
                new ForkOrigin(sessionId, 1), session.createdAt(), session.updatedAt(), null, session.lastSeq()),
            events, List.of(), List.of(), List.of(), List.of(), List.of())),
        new Invalid("metadata with a value past the limit", "archive.session.metadata[k]", new SessionArchive(
            new Session(sessionId, null, null, null, session.status(), session.settings(),
                Map.of("k", "v".repeat(Limits.MAX_METADATA_VALUE_LENGTH + 1)), null, session.createdAt(),
                session.updatedAt(), null, session.lastSeq()),
            events, List.of(), List.of(), List.of(), List.of(), List.of())),
        new Invalid("two runs with one id", "archive.runs[1]", valid.withRuns(List.of(run(sessionId, "r", at),
            run(sessionId, "r", at.plusSeconds(1))))),
        new Invalid("a run of another session", "archive.runs[0].sessionId",
            valid.withRuns(List.of(run("other", "r", at))))));
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      cases.addAll(List.of(
          new Invalid("two audit rows of one turn", "archive.modelCalls[1]", valid.withModelCalls(List.of(
              new ModelCall(sessionId, 1, "m", json("{}"), json("{}"), at),
              new ModelCall(sessionId, 1, "m", json("[]"), json("{}"), at)))),
          new Invalid("an audit row of another session", "archive.modelCalls[0].sessionId", valid.withModelCalls(
              List.of(new ModelCall("other", 1, "m", json("{}"), json("{}"), at))))));
    }
    if (store.supports(Capability.TOOL_CALLS)) {
      cases.addAll(List.of(
          new Invalid("a pending call with a result", "archive.toolCalls[0].result", valid.withToolCalls(List.of(
              call(sessionId, "c", ToolCallStatus.PENDING, json("{}"), null, at)))),
          new Invalid("a completed call without a result", "archive.toolCalls[0].result", valid.withToolCalls(
              List.of(call(sessionId, "c", ToolCallStatus.COMPLETED, null, null, at)))),
          new Invalid("a completed call with a deadline", "archive.toolCalls[0].deadline", valid.withToolCalls(
              List.of(call(sessionId, "c", ToolCallStatus.COMPLETED, json("{}"), at, at)))),
          new Invalid("two calls with one id", "archive.toolCalls[1]", valid.withToolCalls(List.of(
              call(sessionId, "c", ToolCallStatus.PENDING, null, null, at),
              call(sessionId, "c", ToolCallStatus.CANCELLED, json("{}"), null, at.plusSeconds(1))))),
          new Invalid("a call of another session", "archive.toolCalls[0].sessionId", valid.withToolCalls(List.of(
              call("other", "c", ToolCallStatus.PENDING, null, null, at)))),
          new Invalid("a call requested by an event the log lacks", "archive.toolCalls[1].requestEventId",
              valid.withToolCalls(List.of(requestedBy(call(sessionId, "c-1", ToolCallStatus.PENDING, null, null, at),
                  "m-3"), requestedBy(call(sessionId, "c-2", ToolCallStatus.PENDING, null, null, at.plusSeconds(1)),
                  "m-4"))))));
    }
    if (store.supports(Capability.SUMMARIES)) {
      cases.addAll(List.of(
          new Invalid("a summary past the last seq", "archive.summaries[0].toSeq", valid.withSummaries(List.of(
              new Summary(sessionId, 1, 4, json("{}"), 1, at)))),
          new Invalid("a summary ending before it starts", "archive.summaries[0].toSeq", valid.withSummaries(
              List.of(new Summary(sessionId, 3, 2, json("{}"), 1, at)))),
          new Invalid("a summary of version 0", "archive.summaries[0].version", valid.withSummaries(List.of(
              new Summary(sessionId, 1, 2, json("{}"), 0, at)))),
          new Invalid("two summaries to one seq", "archive.summaries[1]", valid.withSummaries(List.of(
              new Summary(sessionId, 1, 2, json("{}"), 1, at), new Summary(sessionId, 2, 2, json("{}"), 1, at)))),
          new Invalid("a summary of another session", "archive.summaries[0].sessionId", valid.withSummaries(
              List.of(new Summary("other", 1, 2, json("{}"), 1, at))))));
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      cases.addAll(List.of(
          new Invalid("a checkpoint past the size limit", "archive.checkpoints[0].data", valid.withCheckpoints(
              List.of(new Checkpoint(CheckpointKey.of(sessionId, "big"), new byte[Limits.MAX_CHECKPOINT_BYTES + 1],
                  at)))),
          new Invalid("two checkpoints of one name", "archive.checkpoints[1]", valid.withCheckpoints(List.of(
              new Checkpoint(CheckpointKey.of(sessionId, "k"), new byte[] {1}, at),
              new Checkpoint(CheckpointKey.of(sessionId, "k"), new byte[] {2}, at)))),
          new Invalid("a checkpoint of another session", "archive.checkpoints[0].sessionId",
              valid.withCheckpoints(List.of(new Checkpoint(CheckpointKey.of("other", "k"), new byte[] {1}, at))))));
    }

    for (Invalid invalid : cases) {
      assertRejected("import of an archive with " + invalid.what(),
          () -> store.archives().importSession(invalid.archive()), invalid.field());
      assertThat(store.sessions().find(sessionId)).as("session after rejecting %s", invalid.what()).isEmpty();
      assertThat(store.sessions().find("other")).as("other session after rejecting %s", invalid.what()).isEmpty();
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      assertRejected("import of a global checkpoint past the size limit", () -> store.archives()
          .importGlobalCheckpoint(new Checkpoint(CheckpointKey.global("big"), new byte[Limits.MAX_CHECKPOINT_BYTES + 1],
              at)), "checkpoint.data");
      assertThat(store.archives().globalCheckpoints()).as("global checkpoints after the rejection").isEmpty();
    }
  }

  private static Run run(String sessionId, String id, Instant at) {
    return new Run(id, sessionId, RunStatus.COMPLETED, Json.emptyObject(), null, at, at);
  }

  private static ToolCall call(String sessionId, String id, ToolCallStatus status, Json result, Instant deadline,
      Instant at) {
    return new ToolCall(id, sessionId, null, null, "tool", Json.emptyObject(), status, result, deadline, at, at);
  }

  private static ToolCall requestedBy(ToolCall call, String eventId) {
    return new ToolCall(call.id(), call.sessionId(), call.runId(), eventId, call.toolName(), call.arguments(),
        call.status(), call.result(), call.deadline(), call.createdAt(), call.updatedAt());
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork's archive imports into a store without its parent: its whole log, and its origin as data")
  void aForksArchiveImportsWithoutItsParent() {
    assumeDeclared(Capability.FORKS);
    String parent = id("parent");
    store.events().appendAll(parent, List.of(event("p-1"), event("p-2"), event("p-3"), event("p-4")));
    tick();
    Session fork = store.sessions().fork(parent, 3);
    tick();
    store.events().appendAll(fork.id(), List.of(event("f-4"), event("f-5")));
    SessionArchive exported = export(store, fork.id());

    assertThat(Events.ids(exported.events())).as("ids of the fork's archived log")
        .containsExactly("p-1", "p-2", "p-3", "f-4", "f-5");
    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importSession(exported)).as("import of the fork without its parent")
          .isEqualTo(ImportOutcome.IMPORTED);

      assertThat(target.sessions().find(parent)).as("parent in the target").isEmpty();
      Session imported = present(target.sessions().find(fork.id()), "imported fork");
      assertThat(imported.forkOrigin()).as("origin of the imported fork").contains(fork.forkedFrom());
      assertThat(Events.readAll(target.events(), fork.id())).as("log of the imported fork")
          .isEqualTo(exported.events());
      assertThat(export(target, fork.id())).as("export of the imported fork").isEqualTo(exported);
    }
  }

  @Test
  @DisplayName("An archive whose summaries cover a single seq, or end at its last seq, imports with them")
  void summariesAtTheBoundsImport() {
    assumeDeclared(Capability.SUMMARIES);
    String sessionId = id("bounds");
    SessionArchive handMade = handMade(sessionId, 3);
    Instant at = handMade.session().updatedAt();
    List<Summary> summaries = List.of(new Summary(sessionId, 1, 1, json("{\"one\": 1}"), 1, at),
        new Summary(sessionId, 2, 3, json("{\"rest\": 2}"), 1, at));

    assertThat(store.archives().importSession(handMade.withSummaries(summaries)))
        .as("import of summaries 1..1 and 2..3 over a log ending at 3").isEqualTo(ImportOutcome.IMPORTED);
    assertThat(store.summaries().list(sessionId)).as("imported summaries").isEqualTo(summaries);
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork of an imported session takes the runs its imported prefix names, up to the fork point exactly")
  void aForkOfAnImportedSessionTakesTheRunsItsPrefixNames() {
    assumeDeclared(Capability.FORKS);
    String sessionId = id("runs");
    store.runs().save(RunWrite.of("run-1", sessionId));
    store.runs().save(RunWrite.of("run-2", sessionId));
    store.events().appendAll(sessionId, List.of(event("e-1").withRunId("run-1"), event("e-2"),
        event("e-3").withRunId("run-2")));
    SessionArchive exported = export(store, sessionId);

    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importSession(exported)).as("import").isEqualTo(ImportOutcome.IMPORTED);

      assertThat(target.runs().list(target.sessions().fork(sessionId, 2).id())).extracting(Run::id)
          .as("runs of a fork of the imported session at seq 2").containsExactly("run-1");
      assertThat(target.runs().list(target.sessions().fork(sessionId, 3).id())).extracting(Run::id)
          .as("runs of a fork of the imported session at seq 3").containsExactlyInAnyOrder("run-1", "run-2");
    }
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("A session whose head retention cut exports with its cut point and imports as it is: the same seqs, "
      + "the same last seq, and the next append continues after it")
  void aCutSessionExportsAndImportsAsItIs() {
    assumeCut();
    String sessionId = sessionCutThrough(8, 10);
    SessionArchive exported = export(store, sessionId);

    assertThat(exported.cutSeq()).as("cut seq of the exported archive").isEqualTo(8);
    assertThat(Events.seqs(exported.events())).as("seqs of the exported log").containsExactly(9L, 10L);
    assertThat(exported.lastSeq()).as("last seq of the exported archive").isEqualTo(10);
    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importSession(exported)).as("import of the cut session")
          .isEqualTo(ImportOutcome.IMPORTED);

      assertThat(export(target, sessionId)).as("export of the imported cut session").isEqualTo(exported);
      assertThat(Events.readAll(target.events(), sessionId)).as("log of the imported cut session")
          .isEqualTo(exported.events());
      assertThat(present(target.sessions().find(sessionId), "imported session").lastSeq())
          .as("last seq of the imported cut session").isEqualTo(10);
      assertThat(target.archives().importSession(exported)).as("second import of the cut session")
          .isEqualTo(ImportOutcome.UNCHANGED);
      assertThat(target.events().append(sessionId, event("next")).seq()).as("seq of the next append")
          .isEqualTo(11);
    }
  }

  @Test
  @DisplayName("A session whose whole log retention cut exports with no events and its cut point as its last seq, "
      + "and imports so: the next append continues after it")
  void aWhollyCutSessionImportsWithItsLastSeq() {
    assumeCut();
    String sessionId = sessionCutThrough(8, 8);
    SessionArchive exported = export(store, sessionId);

    assertThat(exported.events()).as("events of the exported archive").isEmpty();
    assertThat(exported.cutSeq()).as("cut seq of the exported archive").isEqualTo(8);
    assertThat(exported.session().lastSeq()).as("last seq of the exported session").isEqualTo(8);
    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importSession(exported)).as("import of the wholly cut session")
          .isEqualTo(ImportOutcome.IMPORTED);

      assertThat(export(target, sessionId)).as("export of the imported wholly cut session").isEqualTo(exported);
      assertThat(target.events().lastSeq(sessionId)).as("last seq in the target").isEqualTo(8);
      assertThat(target.events().append(sessionId, event("next")).seq()).as("seq of the next append")
          .isEqualTo(9);
    }
  }

  @Test
  @DisplayName("A cut archive whose log does not start right after its cut point is rejected, naming the event")
  void aCutArchiveWithAGapIsRejected() {
    assumeCut();
    SessionArchive archive = handMade(id("gap"), 6);
    SessionArchive cut = archive.withEvents(archive.events().subList(3, 6)).withCutSeq(2);

    assertRejected("cut through 2, first seq 4", () -> store.archives().importSession(cut), "archive.events[0].seq");
    assertThat(store.sessions().find(archive.sessionId())).as("session of the rejected archive").isEmpty();
  }

  private void assumeCut() {
    assumeDeclared(Capability.RETENTION);
    assumeDeclared(Capability.SUMMARIES);
  }

  /** A session of {@code count} events, summaries ending at 4 and 8, whose head retention cut through 8. */
  private String sessionCutThrough(long through, int count) {
    String sessionId = id("cut");
    for (int i = 1; i <= count; i++) {
      store.events().append(sessionId, event(sessionId + "-e" + i));
      tick();
    }
    store.summaries().put(sessionId, NewSummary.of(1, 4, json("{\"upTo\": 4}")));
    store.summaries().put(sessionId, NewSummary.of(5, 8, json("{\"upTo\": 8}")));
    long removed = store.retention().apply(RetentionPolicy.builder().keepEventsPerSession(count - (int) through + 1)
        .build()).events();
    assertThat(removed).as("events the cut removed").isEqualTo(through);
    return sessionId;
  }

  @Test
  @DisplayName("Exporting an unknown session is empty and creates nothing")
  void exportOfAnUnknownSessionIsEmpty() {
    String sessionId = id("unknown");

    assertThat(store.archives().export(sessionId)).as("export of an unknown session").isEmpty();
    assertThat(store.sessions().find(sessionId)).as("unknown session after its export").isEmpty();
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("Imported events keep their ids, seqs and timestamps, and the next append continues after the last")
  void importedEventsKeepTheirIdsAndSeqs() {
    String sessionId = id("handmade");
    SessionArchive archive = handMade(sessionId, 30);

    assertThat(store.archives().importSession(archive)).isEqualTo(ImportOutcome.IMPORTED);

    List<Event> log = Events.readAll(store.events(), sessionId);
    assertThat(Events.seqs(log)).as("seqs of the imported log").isEqualTo(Events.range(1, 30));
    assertThat(log).as("imported log").isEqualTo(archive.events());
    assertThat(store.events().find(sessionId, "m-17")).as("event m-17").contains(archive.events().get(16));
    assertThat(store.sessions().find(sessionId)).as("imported session").contains(archive.session());
    assertThat(store.events().append(sessionId, event("next")).seq()).as("seq of the next append").isEqualTo(31);
    assertThat(store.events().append(sessionId, NewEvent.of("message", json("{\"i\": 1}")).withId("m-1")
        .withTimestamp(archive.events().get(0).timestamp())).seq())
        .as("seq of a replay of imported event m-1").isEqualTo(1);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("An imported pending tool call stays pending with its deadline, and expires by it")
  void anImportedPendingCallKeepsItsDeadlineAndExpires() {
    assumeDeclared(Capability.DEADLINES);
    String sessionId = id("pending");
    store.events().append(sessionId, event("tool-use"));
    Instant deadline = clock.instant().plus(Duration.ofHours(1));
    ToolCall registered = store.toolCalls().save(ToolCallWrite.of("call-1", sessionId, "approve")
        .withRequestEventId("tool-use").withDeadline(deadline));
    SessionArchive exported = export(store, sessionId);

    try (SessionStore target = otherStore()) {
      target.archives().importSession(exported);

      assertThat(target.toolCalls().pending(sessionId)).as("pending calls after the import")
          .containsExactly(registered);
      clock.advance(Duration.ofHours(2));
      ToolCall expired = present(target.toolCalls().find(sessionId, "call-1"), "imported call after its deadline");
      assertThat(expired.status()).as("status of the imported call after its deadline")
          .isEqualTo(ToolCallStatus.EXPIRED);
      assertThat(expired.result()).as("result of the expired call").isEqualTo(Expiry.result(deadline));
      assertThat(target.toolCalls().pending(sessionId)).as("pending calls after the deadline").isEmpty();
    }
  }

  @Test
  @DisplayName("Global checkpoints are listed by name and import with their time: IMPORTED, then UNCHANGED, and a "
      + "CONFLICT over other bytes writes nothing")
  void globalCheckpointsExportAndImport() {
    assumeDeclared(Capability.CHECKPOINTS);
    Checkpoint second = store.checkpoints().put(CheckpointKey.global("runner-b"), new byte[] {2});
    tick();
    Checkpoint first = store.checkpoints().put(CheckpointKey.global("runner-a"), new byte[] {1, 1});
    store.checkpoints().put(CheckpointKey.of(id("owner"), "turn-state"), new byte[] {9});
    tick();

    assertThat(store.archives().globalCheckpoints()).as("global checkpoints").containsExactly(first, second);
    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importGlobalCheckpoint(first)).isEqualTo(ImportOutcome.IMPORTED);
      assertThat(target.archives().importGlobalCheckpoint(second)).isEqualTo(ImportOutcome.IMPORTED);
      tick();

      assertThat(target.archives().globalCheckpoints()).as("imported global checkpoints")
          .containsExactly(first, second);
      assertThat(target.archives().importGlobalCheckpoint(first)).as("second import")
          .isEqualTo(ImportOutcome.UNCHANGED);
      Checkpoint other = new Checkpoint(first.key(), new byte[] {7}, first.updatedAt());
      assertThat(target.archives().importGlobalCheckpoint(other)).as("import over other bytes")
          .isEqualTo(ImportOutcome.CONFLICT);
      assertThat(target.checkpoints().get(first.key())).as("checkpoint after the conflict").contains(first);
    }
  }

  @Test
  @DisplayName("A session holding several checkpoints exports them all and imports them all, each under its own name")
  void aSessionsCheckpointsAllImport() {
    assumeDeclared(Capability.CHECKPOINTS);
    String sessionId = id("turns");
    store.events().append(sessionId, event("e1"));
    Checkpoint runner = store.checkpoints().put(CheckpointKey.of(sessionId, "runner"), new byte[] {1});
    tick();
    Checkpoint turn = store.checkpoints().put(CheckpointKey.of(sessionId, "turn-state"), new byte[] {2, 2});
    SessionArchive exported = export(store, sessionId);
    assertThat(exported.checkpoints()).as("checkpoints of the export").containsExactlyInAnyOrder(runner, turn);

    try (SessionStore target = otherStore()) {
      assertThat(target.archives().importSession(exported)).isEqualTo(ImportOutcome.IMPORTED);

      assertThat(target.checkpoints().get(runner.key())).as("imported checkpoint runner").contains(runner);
      assertThat(target.checkpoints().get(turn.key())).as("imported checkpoint turn-state").contains(turn);
    }
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Export and import reject bad arguments, naming them, before anything is read or written")
  void badArgumentsAreRejected() {
    assertRejected("export(null)", () -> store.archives().export(null), "sessionId");
    assertRejected("export of a blank id", () -> store.archives().export(" "), "sessionId");
    assertRejected("importSession(null)", () -> store.archives().importSession(null), "archive");
    assertRejected("importGlobalCheckpoint(null)", () -> store.archives().importGlobalCheckpoint(null),
        "checkpoint");
    String sessionId = id("owner");
    Checkpoint owned = new Checkpoint(CheckpointKey.of(sessionId, "turn-state"), new byte[] {1}, clock.instant());
    assertRejected("import of a session checkpoint as a global one",
        () -> store.archives().importGlobalCheckpoint(owned), "checkpoint.sessionId");
    assertThat(store.sessions().find(sessionId)).as("owner of the rejected checkpoint").isEmpty();
  }

  private static void assertRejected(String what, ThrowingCallable call, String field) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).as(what).isInstanceOf(InvalidArgumentException.class);
    assertThat(((InvalidArgumentException) thrown).field()).as("field named by %s", what).isEqualTo(field);
  }
}
