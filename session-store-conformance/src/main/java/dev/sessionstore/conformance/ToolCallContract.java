package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.ConflictException;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Resolution;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Tool calls (SPEC guarantee 10): registration, lookup, the pending list, and resolution as a compare-and-set from
 * pending that exactly one of any number of concurrent resolvers wins. Requires {@link Capability#TOOL_CALLS};
 * deadlines are verified by the deadline group.
 *
 * <p>If this fails, check that {@code resolve} changes the call only while it is pending in one atomic step (a
 * conditional update such as {@code UPDATE ... WHERE status = 'pending'} and its row count, or a compare-and-set on
 * the stored value, never a read followed by a separate write, however short the gap between them); that a resolve
 * of a call already stored with the same status and result returns {@code Replayed} and not {@code Stale}; that a
 * save of a known call keeps its status,
 * result, deadline and creation time; and that {@code pending} orders by creation time and leaves resolved calls out.
 */
public abstract class ToolCallContract extends Contract {

  private static final int RESOLVERS = 32;
  private static final int RACED_CALLS = 8;
  /** Calls raced one after another by {@link #RACERS} threads released together for each. */
  private static final int NARROW_RACES = 400;
  /** Racers per call in the narrow races: spinning threads, about one per processor. */
  private static final int RACERS = Math.min(4, Math.max(2, Runtime.getRuntime().availableProcessors()));

  protected ToolCallContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.TOOL_CALLS);
  }

  private ToolCalls calls() {
    return store.toolCalls();
  }

  /** Registers a call named {@code toolName} with arguments {@code {"q": id}} in {@code sessionId}. */
  private ToolCall register(String callId, String sessionId) {
    return calls().save(new ToolCallWrite(callId, sessionId, null, null, "search", json("{\"q\":\"" + callId + "\"}"), null));
  }

  private ToolCall stored(String session, String callId) {
    return present(calls().find(session, callId), "tool call %s", callId);
  }

  @Test
  @DisplayName("Saving a new tool call stores it pending, with its arguments, run and no result or deadline")
  void saveRegistersAPendingCall() {
    String session = id("session");
    String call = id("call");

    ToolCall saved = calls().save(
        new ToolCallWrite(call, session, "run-1", null, "ask_human", json("{\"question\":\"proceed?\",\"options\":[1,2]}"), null));

    assertThat(saved.id()).isEqualTo(call);
    assertThat(saved.sessionId()).isEqualTo(session);
    assertThat(saved.runId()).isEqualTo("run-1");
    assertThat(saved.toolName()).isEqualTo("ask_human");
    assertThat(saved.arguments()).isEqualTo(json("{\"options\":[1,2],\"question\":\"proceed?\"}"));
    assertThat(saved.status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(saved.result()).as("result of a pending call").isNull();
    assertThat(saved.deadline()).as("deadline of a newly saved call").isNull();
    assertThat(saved.createdAt()).isEqualTo(clock.instant());
    assertThat(saved.updatedAt()).isEqualTo(clock.instant());
  }

  @Test
  @DisplayName("find returns the call exactly as save returned it")
  void findReturnsTheSavedCall() {
    String session = id("session");
    ToolCall saved = register(id("call"), session);

    assertThat(stored(session, saved.id())).isEqualTo(saved);
  }

  @Test
  @DisplayName("find of an unknown tool call id is empty")
  void findOfAnUnknownCallIsEmpty() {
    String session = id("session");
    register(id("call"), session);

    assertThat(calls().find(session, "no-such-call")).isEmpty();
  }

  @Test
  @DisplayName("Tool call ids are exact: ids differing only in case or whitespace name different calls")
  void toolCallIdsAreExact() {
    String session = id("session");
    register("Call-A", session);

    assertThat(calls().find(session, "call-a")).as("lookalike id call-a").isEmpty();
    assertThat(calls().find(session, "Call-A ")).as("lookalike id with a trailing space").isEmpty();
    assertThat(calls().resolve(session, "call-a", ToolCallStatus.COMPLETED, null).won()).as("resolving a lookalike").isFalse();
    assertThat(stored(session, "Call-A").status()).isEqualTo(ToolCallStatus.PENDING);
  }

  @Test
  @DisplayName("Saving a tool call under an unknown session creates the session, active")
  void saveCreatesTheSessionImplicitly() {
    String session = id("session");

    register(id("call"), session);

    assertThat(present(store.sessions().find(session), "session %s", session).status())
        .isEqualTo(SessionStatus.ACTIVE);
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Saving a call whose requesting event the session does not hold is NotFoundException and stores nothing")
  void aCallRequestedByAnUnknownEventIsNotSaved() {
    String session = id("session");
    store.events().append(session, event("use-1"));
    String call = id("call");

    assertThatThrownBy(() -> calls().save(ToolCallWrite.of(call, session, "approve").withRequestEventId("no-such")))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> calls().save(ToolCallWrite.of(call, id("session"), "approve")
        .withRequestEventId("use-1")))
        .as("a requesting event of another session").isInstanceOf(NotFoundException.class);
    assertThat(calls().find(session, call)).as("the call after the rejected saves").isEmpty();
    assertThat(calls().save(ToolCallWrite.of(call, session, "approve").withRequestEventId("use-1")).requestEventId())
        .as("requesting event of a call saved with a stored one").isEqualTo("use-1");
  }

  @Test
  @DisplayName("Saving a known call again updates run, tool name and arguments, keeps it pending and keeps createdAt")
  void savingAgainUpdatesDescriptiveFields() {
    String session = id("session");
    String call = id("call");
    ToolCall first = register(call, session);
    clock.advance(Duration.ofSeconds(5));

    ToolCall second = calls().save(new ToolCallWrite(call, session, "run-2", null, "fetch", json("{\"url\":\"x\"}"), null));

    assertThat(stored(session, call)).isEqualTo(second);
    assertThat(second.runId()).isEqualTo("run-2");
    assertThat(second.toolName()).isEqualTo("fetch");
    assertThat(second.arguments()).isEqualTo(json("{\"url\":\"x\"}"));
    assertThat(second.status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(second.createdAt()).as("createdAt after a second save").isEqualTo(first.createdAt());
    assertThat(second.updatedAt()).as("updatedAt after a second save").isEqualTo(clock.instant());
    assertThat(calls().pending(session)).as("pending calls after a second save").hasSize(1);
  }

  @Test
  @DisplayName("Saving a resolved call again never resets its status or result")
  void savingAgainNeverResetsAResolvedCall() {
    String session = id("session");
    String call = id("call");
    register(call, session);
    calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"answer\":42}"));

    ToolCall resaved = calls().save(new ToolCallWrite(call, session, null, null, "search", json("{\"q\":\"again\"}"), null));

    for (ToolCall view : List.of(resaved, stored(session, call))) {
      assertThat(view.status()).as("status after re-saving a resolved call").isEqualTo(ToolCallStatus.COMPLETED);
      assertThat(view.result()).as("result after re-saving a resolved call").isEqualTo(json("{\"answer\":42}"));
    }
    assertThat(calls().pending(session)).as("pending calls after re-saving a resolved call").isEmpty();
    assertThat(calls().resolve(session, call, ToolCallStatus.FAILED, null).won()).as("resolving it again").isFalse();
  }

  @Test
  @Tag("guarantee-19")
  @DisplayName("The same tool call id in two sessions names two independent calls")
  void toolCallIdsAreScopedBySession() {
    String first = id("session");
    String second = id("session");
    String call = id("call");
    ToolCall original = register(call, first);

    ToolCall other = calls().save(new ToolCallWrite(call, second, null, null, "other", json("{\"x\":1}"), null));
    Resolution resolved = calls().resolve(second, call, ToolCallStatus.COMPLETED, json("{\"done\":true}"));

    assertThat(other.sessionId()).isEqualTo(second);
    assertThat(resolved.won()).as("resolving the second session's call").isTrue();
    assertThat(stored(first, call)).as("the first session's call").isEqualTo(original);
    assertThat(stored(second, call).status()).isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(ids(calls().pending(first))).containsExactly(call);
    assertThat(calls().pending(second)).isEmpty();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("pending lists a session's pending calls oldest first, by creation time and not by id")
  void pendingListsOldestFirst() {
    String session = id("session");
    for (String call : List.of("c-zulu", "c-alpha", "c-mike")) {
      register(call, session);
      clock.advance(Duration.ofSeconds(1));
    }

    assertThat(ids(calls().pending(session))).containsExactly("c-zulu", "c-alpha", "c-mike");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("pending keeps a call's place when it is saved again, and leaves resolved calls out")
  void pendingExcludesResolvedCalls() {
    String session = id("session");
    for (String call : List.of("p-1", "p-2", "p-3", "p-4")) {
      register(call, session);
      clock.advance(Duration.ofSeconds(1));
    }
    calls().resolve(session, "p-2", ToolCallStatus.COMPLETED, null);
    calls().resolve(session, "p-4", ToolCallStatus.CANCELLED, null);
    calls().save(new ToolCallWrite("p-1", session, null, null, "renamed", null, null));

    assertThat(ids(calls().pending(session))).containsExactly("p-1", "p-3");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("pending is per session and empty for an unknown session")
  void pendingIsPerSession() {
    String first = id("session");
    String second = id("session");
    register("a-1", first);
    register("b-1", second);
    register("a-2", first);

    assertThat(ids(calls().pending(first))).containsExactly("a-1", "a-2");
    assertThat(ids(calls().pending(second))).containsExactly("b-1");
    assertThat(calls().pending("no-such-session")).isEmpty();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("The winning resolve returns the stored call: its status and result, no deadline, updated now")
  void resolveReturnsTheStoredCallToTheWinner() {
    String session = id("session");
    String call = id("call");
    ToolCall saved = register(call, session);
    clock.advance(Duration.ofSeconds(3));

    Resolution resolution = calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"rows\":[1,2,3]}"));

    assertThat(resolution).as("outcome of the first resolve").isInstanceOf(Resolution.Resolved.class);
    assertThat(resolution.won()).isTrue();
    ToolCall resolved = ((Resolution.Resolved) resolution).call();
    assertThat(resolved.id()).isEqualTo(call);
    assertThat(resolved.sessionId()).isEqualTo(session);
    assertThat(resolved.toolName()).isEqualTo(saved.toolName());
    assertThat(resolved.arguments()).isEqualTo(saved.arguments());
    assertThat(resolved.status()).isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(resolved.result()).isEqualTo(json("{\"rows\":[1,2,3]}"));
    assertThat(resolved.deadline()).as("deadline of a resolved call").isNull();
    assertThat(resolved.createdAt()).isEqualTo(saved.createdAt());
    assertThat(resolved.updatedAt()).isEqualTo(clock.instant());
    assertThat(stored(session, call)).as("the call as stored after resolving").isEqualTo(resolved);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = ToolCallStatus.class, names = {"COMPLETED", "FAILED", "CANCELLED"})
  @Tag("guarantee-10")
  @DisplayName("A pending call resolves to each terminal status a caller may choose")
  void resolveAcceptsEveryCallerTerminalStatus(ToolCallStatus status) {
    String call = id("call");
    String session = id("session");
    register(call, session);

    assertThat(calls().resolve(session, call, status, json("{\"s\":\"" + status + "\"}")).won()).isTrue();

    assertThat(stored(session, call).status()).isEqualTo(status);
    assertThat(stored(session, call).result()).isEqualTo(json("{\"s\":\"" + status + "\"}"));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = ToolCallStatus.class, names = {"PENDING", "EXPIRED"})
  @Tag("guarantee-15")
  @DisplayName("Resolving to PENDING or EXPIRED is rejected and leaves the call pending and resolvable")
  void resolveRejectsNonCallerStatuses(ToolCallStatus status) {
    String session = id("session");
    String call = id("call");
    ToolCall saved = register(call, session);

    assertThatThrownBy(() -> calls().resolve(session, call, status, null)).isInstanceOf(InvalidArgumentException.class);

    assertThat(stored(session, call)).as("the call after a rejected resolve").isEqualTo(saved);
    assertThat(calls().resolve(session, call, ToolCallStatus.COMPLETED, null).won()).as("a valid resolve afterwards").isTrue();
  }

  @Test
  @DisplayName("Resolving with a null result stores the empty object")
  void aNullResultIsTheEmptyObject() {
    String call = id("call");
    String session = id("session");
    register(call, session);

    Resolution resolution = calls().resolve(session, call, ToolCallStatus.COMPLETED, null);

    assertThat(((Resolution.Resolved) resolution).call().result()).isEqualTo(Json.emptyObject());
    assertThat(stored(session, call).result()).as("stored result of a resolve without one").isEqualTo(Json.emptyObject());
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A second resolve is stale, carries the call's current state and changes nothing")
  void aSecondResolveIsStale() {
    String call = id("call");
    String session = id("session");
    register(call, session);
    calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"first\":true}"));
    ToolCall afterFirst = stored(session, call);
    clock.advance(Duration.ofSeconds(1));

    Resolution second = calls().resolve(session, call, ToolCallStatus.FAILED, json("{\"second\":true}"));

    assertThat(second).as("outcome of the second resolve").isInstanceOf(Resolution.Stale.class);
    assertThat(second.won()).isFalse();
    Resolution.Stale stale = (Resolution.Stale) second;
    assertThat(stale.toolCallId()).isEqualTo(call);
    assertThat(stale.current()).as("current state in the stale outcome").contains(afterFirst);
    assertThat(stored(session, call)).as("the call after a stale resolve").isEqualTo(afterFirst);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A resolve retried with the same status and result is Replayed: it returns the stored call and "
      + "writes nothing")
  void aRetriedResolveIsReplayed() {
    String call = id("call");
    String session = id("session");
    register(call, session);
    Resolution first = calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"answer\":[1,2]}"));
    ToolCall afterFirst = stored(session, call);
    clock.advance(Duration.ofSeconds(1));

    Resolution retried = calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"answer\":[1,2]}"));

    assertThat(first.won()).as("the first resolve").isTrue();
    assertThat(retried).as("outcome of a resolve retried with the same status and result")
        .isEqualTo(new Resolution.Replayed(afterFirst));
    assertThat(retried.won()).as("won() of the retry").isFalse();
    assertThat(retried.applied()).as("applied() of the retry").isTrue();
    assertThat(stored(session, call)).as("the call after the retry (its update time included)").isEqualTo(afterFirst);
    assertThat(calls().resolve(session, call, ToolCallStatus.FAILED, json("{\"answer\":[1,2]}")))
        .as("a retry with another status").isInstanceOf(Resolution.Stale.class);
    assertThat(calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"answer\":[2,1]}")))
        .as("a retry with another result").isInstanceOf(Resolution.Stale.class);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A resolve without a result, retried without one or with the empty object, is Replayed")
  void aRetriedResolveWithoutAResultIsReplayed() {
    String call = id("call");
    String session = id("session");
    register(call, session);
    calls().resolve(session, call, ToolCallStatus.CANCELLED, null);
    ToolCall cancelled = stored(session, call);

    assertThat(calls().resolve(session, call, ToolCallStatus.CANCELLED, null))
        .as("the cancellation retried without a result").isEqualTo(new Resolution.Replayed(cancelled));
    assertThat(calls().resolve(session, call, ToolCallStatus.CANCELLED, Json.emptyObject()))
        .as("the cancellation retried with the empty object").isEqualTo(new Resolution.Replayed(cancelled));
    assertThat(calls().resolve(session, call, ToolCallStatus.CANCELLED, json("{\"reason\":\"x\"}")))
        .as("the cancellation retried with a reason it was not given").isInstanceOf(Resolution.Stale.class);
    assertThat(stored(session, call)).as("the call after the retries").isEqualTo(cancelled);
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("A resolve after a cancellation is stale: a late answer cannot overwrite the cancellation")
  void aLateAnswerAfterCancellationIsStale() {
    String call = id("call");
    String session = id("session");
    register(call, session);
    calls().resolve(session, call, ToolCallStatus.CANCELLED, json("{\"reason\":\"user left\"}"));

    assertThat(calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"late\":1}")).won()).isFalse();

    assertThat(stored(session, call).status()).isEqualTo(ToolCallStatus.CANCELLED);
    assertThat(stored(session, call).result()).isEqualTo(json("{\"reason\":\"user left\"}"));
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Resolving an unknown call is stale with no current state, and creates nothing")
  void resolvingAnUnknownCallIsStale() {
    String session = id("session");
    register(id("call"), session);

    Resolution resolution = calls().resolve(session, "no-such-call", ToolCallStatus.COMPLETED, json("{}"));

    assertThat(resolution).isEqualTo(new Resolution.Stale("no-such-call", Optional.empty()));
    assertThat(calls().find(session, "no-such-call")).isEmpty();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("32 threads resolving one pending call at once: exactly one wins, 31 are stale, the winner's result "
      + "is stored")
  void concurrentResolversHaveExactlyOneWinner() {
    String session = id("session");
    for (int round = 0; round < RACED_CALLS; round++) {
      String call = id("raced-call");
      register(call, session);

      List<Resolution> outcomes = Race.run(RESOLVERS, Duration.ofSeconds(30),
          resolver -> calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"resolver\":" + resolver + "}")));

      List<Resolution.Resolved> winners = outcomes.stream()
          .filter(Resolution.Resolved.class::isInstance).map(Resolution.Resolved.class::cast)
          .collect(Collectors.toList());
      assertThat(winners).as("winners among %s concurrent resolvers of %s", RESOLVERS, call).hasSize(1);
      assertThat(outcomes).as("stale outcomes among concurrent resolvers of %s", call)
          .filteredOn(Resolution.Stale.class::isInstance).hasSize(RESOLVERS - 1);
      Json winnerResult = winners.get(0).call().result();
      ToolCall settled = stored(session, call);
      assertThat(settled.result()).as("stored result of %s against the winner's", call).isEqualTo(winnerResult);
      assertThat(settled.status()).isEqualTo(ToolCallStatus.COMPLETED);
      for (Resolution outcome : outcomes) {
        if (outcome instanceof Resolution.Stale stale) {
          assertThat(stale.current()).as("current state seen by a losing resolver of %s", call)
              .hasValueSatisfying(current -> assertThat(current.result()).isEqualTo(winnerResult));
        }
      }
    }
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("16 threads resolving one call at once with the same status and result: one wins, every other is "
      + "Replayed")
  void concurrentRetriesOfOneResolutionAreReplays() {
    String session = id("session");
    String call = id("call");
    register(call, session);

    List<Resolution> outcomes = Race.run(RESOLVERS / 2, Duration.ofSeconds(30),
        resolver -> calls().resolve(session, call, ToolCallStatus.COMPLETED, json("{\"same\":true}")));

    ToolCall settled = stored(session, call);
    assertThat(outcomes).as("winners among resolvers asking for the same resolution")
        .filteredOn(Resolution::won).hasSize(1);
    assertThat(outcomes).as("outcomes of the resolvers that did not win")
        .filteredOn(outcome -> !outcome.won()).hasSize(RESOLVERS / 2 - 1)
        .allSatisfy(outcome -> assertThat(outcome).isEqualTo(new Resolution.Replayed(settled)));
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("400 calls, each raced by resolvers released together with a sweep of small offsets: every call has "
      + "exactly one winner, whose result is stored")
  void manyCallsEachRacedByResolversReleasedTogether() {
    String session = id("session");
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < NARROW_RACES; i++) {
      ids.add(register(id("narrow"), session).id());
    }

    List<List<Resolution>> rounds = Race.rounds(RACERS, NARROW_RACES, Duration.ofSeconds(120),
        (round, racer) -> calls().resolve(session, ids.get(round), ToolCallStatus.COMPLETED,
            json("{\"racer\":" + racer + "}")));

    List<String> notOneWinner = new ArrayList<>();
    for (int round = 0; round < NARROW_RACES; round++) {
      List<Resolution> outcomes = rounds.get(round);
      List<Resolution.Resolved> winners = outcomes.stream().filter(Resolution.Resolved.class::isInstance)
          .map(Resolution.Resolved.class::cast).collect(Collectors.toList());
      if (winners.size() != 1) {
        notOneWinner.add(ids.get(round) + ": " + winners.size() + " winners");
        continue;
      }
      ToolCall settled = stored(session, ids.get(round));
      assertThat(settled.result()).as("stored result of %s against its winner's", ids.get(round))
          .isEqualTo(winners.get(0).call().result());
      assertThat(outcomes).as("losing resolvers of %s", ids.get(round)).filteredOn(o -> !o.won())
          .allSatisfy(o -> assertThat(o).isInstanceOf(Resolution.Stale.class));
    }
    assertThat(notOneWinner).as("calls without exactly one winner among %s resolvers released together", RACERS)
        .isEmpty();
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Threads resolving different calls at once all win, each with its own result")
  void concurrentResolversOfDifferentCallsAllWin() {
    String session = id("session");
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < RESOLVERS; i++) {
      ids.add(register(id("call"), session).id());
    }

    List<Resolution> outcomes = Race.run(RESOLVERS, Duration.ofSeconds(30),
        i -> calls().resolve(session, ids.get(i), ToolCallStatus.COMPLETED, json("{\"i\":" + i + "}")));

    assertThat(outcomes).as("outcomes of resolving distinct calls").allMatch(Resolution::won);
    for (int i = 0; i < RESOLVERS; i++) {
      assertThat(stored(session, ids.get(i)).result()).as("result of %s", ids.get(i)).isEqualTo(json("{\"i\":" + i + "}"));
    }
    assertThat(calls().pending(session)).isEmpty();
  }

  private static List<String> ids(List<ToolCall> calls) {
    return calls.stream().map(ToolCall::id).collect(Collectors.toList());
  }
}
