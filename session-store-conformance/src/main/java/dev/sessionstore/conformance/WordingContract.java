package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStoreException;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.Failures;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The same failure worded the same by every adapter: each of these is the exception (class and message) that
 * {@link Failures} words for its cause, so that a caller's handling and a log reader's search do not depend on the
 * store. The exception classes are checked by the other groups as well; this group adds the words.
 *
 * <p>If this fails, check: that the adapter raises these failures through {@link Failures} rather than with its own
 * words.
 */
public abstract class WordingContract extends Contract {

  private static final Instant LATER = Instant.parse("2099-01-01T00:00:00Z");

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected WordingContract(SessionStoreConformance kit) {
    super(kit);
  }

  private static void assertWorded(String what, ThrowingCallable call, SessionStoreException expected) {
    assertThatThrownBy(call).as(what).isInstanceOf(expected.getClass()).hasMessage(expected.getMessage());
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("An unknown session, a taken name: worded by the shared rules")
  void sessionFailures() {
    String unknown = id("unknown");
    assertWorded("mergeMetadata of an unknown session", () -> store.sessions().mergeMetadata(unknown, Map.of("k", "v")),
        Failures.sessionNotFound(unknown));
    String name = id("name");
    store.sessions().save(SessionWrite.of(id("owner")).withName(name));
    assertWorded("a taken name", () -> store.sessions().save(SessionWrite.of(id("other")).withName(name)),
        Failures.nameTaken(name));
    String stepper = id("stepper");
    assertWorded("a step taking a taken name", () -> store.commit(Step.builder(stepper)
        .session(SessionWrite.of(stepper).withName(name)).build()), Failures.nameTaken(name));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("A fork point past the log, a fork target in use: worded by the shared rules")
  void forkFailures() {
    assumeDeclared(Capability.FORKS);
    String parent = id("session");
    store.events().appendAll(parent, List.of(event("e1"), event("e2")));
    assertWorded("a fork past the log", () -> store.sessions().fork(parent, 3), Failures.forkPointNotFound(parent, 3));
    String taken = id("taken");
    store.sessions().save(SessionWrite.of(taken));
    assertWorded("a fork into an existing id", () -> store.sessions().fork(parent, 1, taken),
        Failures.forkTargetExists(taken));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("An unknown tool call or requesting event: worded by the shared rules, standalone and in a step")
  void toolCallFailures() {
    assumeDeclared(Capability.TOOL_CALLS);
    String session = id("session");
    store.events().append(session, event("e1"));
    assertWorded("a call requested by an event not in the log",
        () -> store.toolCalls().save(ToolCallWrite.of("c1", session, "t").withRequestEventId("missing")),
        Failures.eventNotFound(session, "missing"));
    assertWorded("a step registering a call requested by an event not in the log",
        () -> store.commit(Step.builder(session)
            .registerToolCall(ToolCallWrite.of("c1", session, "t").withRequestEventId("missing")).build()),
        Failures.eventNotFound(session, "missing"));
    if (store.supports(Capability.DEADLINES)) {
      assertWorded("a deadline on an unknown call", () -> store.toolCalls().expireAt(session, "nope", LATER),
          Failures.toolCallNotFound(session, "nope"));
      assertWorded("a step's deadline on an unknown call",
          () -> store.commit(Step.builder(session).expireAt("nope", LATER).build()),
          Failures.toolCallNotFound(session, "nope"));
    }
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("A summary past the end of the log: worded by the shared rules, standalone and in a step")
  void summaryFailures() {
    assumeDeclared(Capability.SUMMARIES);
    String session = id("session");
    store.events().appendAll(session, List.of(event("e1"), event("e2")));
    assertWorded("a summary past the log", () -> store.summaries().put(session, NewSummary.of(1, 5, json("{}"))),
        Failures.summaryPastLastSeq(session, 5, 2));
    assertWorded("a step's summary past the log after its events",
        () -> store.commit(Step.builder(session).event(event("e3")).summary(NewSummary.of(1, 5, json("{}"))).build()),
        Failures.summaryPastLastSeq(session, 5, 3));
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("An archive whose seqs break off, or whose tool call's result disagrees with its status: worded by the "
      + "shared archive rules, counting from the cut point when the log was cut")
  void archiveFailures() {
    assumeDeclared(Capability.ARCHIVES);
    String session = id("session");
    store.events().appendAll(session, List.of(event("e1"), event("e2"), event("e3")));
    SessionArchive archive = store.archives().export(session).orElseThrow();
    store.sessions().delete(session);
    List<Event> events = archive.events();
    assertWorded("an archive missing seq 2", () -> store.archives().importSession(
        archive.withEvents(List.of(events.get(0), events.get(2)))), new InvalidArgumentException(
        "archive.events[1].seq", "seqs must run gapless from 1: expected 2, was 3"));
    if (store.supports(Capability.RETENTION)) {
      assertWorded("an archive cut through 1 whose log starts at seq 3", () -> store.archives().importSession(
          archive.withEvents(List.of(events.get(2))).withCutSeq(1)), new InvalidArgumentException(
          "archive.events[0].seq", "seqs must run gapless from 2, after the cut through 1: expected 2, was 3"));
    }
    if (store.supports(Capability.TOOL_CALLS)) {
      Instant at = events.get(0).timestamp();
      assertWorded("an archive holding a pending call with a result", () -> store.archives().importSession(
          archive.withToolCalls(List.of(call(session, ToolCallStatus.PENDING, Json.emptyObject(), at)))),
          new InvalidArgumentException("archive.toolCalls[0].result", "a pending call has no result"));
      assertWorded("an archive holding a completed call without a result", () -> store.archives().importSession(
          archive.withToolCalls(List.of(call(session, ToolCallStatus.COMPLETED, null, at)))),
          new InvalidArgumentException("archive.toolCalls[0].result", "a COMPLETED call has a result"));
    }
    assertThat(store.sessions().find(session)).as("session of the rejected archives").isEmpty();
  }

  private static ToolCall call(String sessionId, ToolCallStatus status, Json result, Instant at) {
    return new ToolCall("c", sessionId, null, null, "tool", Json.emptyObject(), status, result, null, at, at);
  }
}
