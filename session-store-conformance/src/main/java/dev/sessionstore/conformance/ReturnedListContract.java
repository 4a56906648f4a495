package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sessionstore.Capability;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStoreException;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.StepResult;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Everything a store returns is immutable (the contract of {@code SessionStore}): every list-returning method of every
 * aggregate, and the lists inside returned pages, revivals, chapters and step results, rejects changes, so no caller
 * can change stored data or another caller's view through a returned value. And every call answers: a value (an
 * empty {@code Optional} for a lookup that misses) or an exception, never {@code null}.
 *
 * <p>If this fails, check: that the method wraps or copies what it returns ({@code List.copyOf}) rather than handing
 * out a list the store keeps.
 */
public abstract class ReturnedListContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected ReturnedListContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Test
  @DisplayName("Every list a store returns, empty or not, rejects changes")
  void everyReturnedListIsUnmodifiable() {
    String session = id("session");
    Map<String, List<?>> lists = new LinkedHashMap<>();
    lists.put("sessions().list(query).items() of none", store.sessions().list(SessionQuery.all()).items());
    lists.put("runs().list(sessionId) of an unknown session", store.runs().list(session));
    store.sessions().save(SessionWrite.of(session).withSettings(json("{\"resume_policy\":\"eager\"}")));
    lists.put("events().appendAll(sessionId, events)",
        store.events().appendAll(session, List.of(event(id("e")), event(id("e")))));
    lists.put("events().read(sessionId, query).items()", store.events().read(session, EventQuery.all()).items());
    lists.put("sessions().list(query).items()", store.sessions().list(SessionQuery.all()).items());
    lists.put("sessions().listResumable()", store.sessions().listResumable());
    store.runs().save(RunWrite.of("r", session).withStatus(RunStatus.RUNNING));
    lists.put("runs().list(sessionId)", store.runs().list(session));
    lists.put("runs().list(sessionId, status)", store.runs().list(session, RunStatus.RUNNING));
    StepResult step = ((StepOutcome.Committed) store.commit(Step.builder(session).event(event(id("e"))).build()))
        .result();
    lists.put("StepResult.events()", step.events());
    lists.put("StepResult.toolCalls()", step.toolCalls());
    lists.put("StepResult.resolutions()", step.resolutions());
    lists.put("StepResult.checkpoints()", step.checkpoints());
    if (store.supports(Capability.WAITING_READS)) {
      lists.put("events().await(sessionId, query, timeout).items()",
          store.events().await(session, EventQuery.all(), Duration.ZERO).items());
    }
    if (store.supports(Capability.TOOL_CALLS)) {
      store.toolCalls().save(ToolCallWrite.of("c1", session, "t"));
      store.toolCalls().save(ToolCallWrite.of("c2", session, "t"));
      lists.put("toolCalls().pending(sessionId)", store.toolCalls().pending(session));
      store.toolCalls().resolve(session, "c2", ToolCallStatus.COMPLETED, null);
      lists.put("toolCalls().pending(sessionId) after a resolve", store.toolCalls().pending(session));
      lists.put("toolCalls().pending(sessionId) of an unknown session", store.toolCalls().pending(id("session")));
    }
    if (store.supports(Capability.SUMMARIES)) {
      store.summaries().put(session, NewSummary.of(1, 2, Json.emptyObject()));
      lists.put("summaries().list(sessionId)", store.summaries().list(session));
      lists.put("summaries().revive(sessionId).events()", store.summaries().revive(session).events());
      lists.put("summaries().revive(sessionId, agentId).events()", store.summaries().revive(session, "a").events());
      lists.put("summaries().chapter(sessionId, toSeq).events()",
          store.summaries().chapter(session, 2).orElseThrow().events());
      lists.put("summaries().chapter(sessionId, toSeq, agentId).events()",
          store.summaries().chapter(session, 2, "a").orElseThrow().events());
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      store.modelCalls().record(session, NewModelCall.of(1, "m", Json.emptyObject()));
      lists.put("modelCalls().list(sessionId)", store.modelCalls().list(session));
    }

    lists.forEach((what, list) -> {
      assertThat(catchThrowable(() -> list.add(null))).as("adding to the list from %s", what)
          .isInstanceOf(UnsupportedOperationException.class);
      assertThat(catchThrowable(list::clear)).as("clearing the list from %s", what)
          .isInstanceOf(UnsupportedOperationException.class);
    });
  }
  @Test
  @DisplayName("Every call answers with a value or refuses with an exception, never null: lookups, writes, steps, "
      + "forks and the optional aggregates, on both sides of each capability")
  void noCallAnswersNull() {
    String session = id("session");
    Map<String, Supplier<Object>> calls = new LinkedHashMap<>();
    calls.put("sessions().save(write)", () -> store.sessions().save(SessionWrite.of(session)));
    calls.put("events().append(sessionId, event)", () -> store.events().append(session, event(id("e"))));
    calls.put("sessions().find(sessionId)", () -> store.sessions().find(session));
    calls.put("sessions().findByName(name)", () -> store.sessions().findByName(id("name")));
    calls.put("sessions().list(query)", () -> store.sessions().list(SessionQuery.all()));
    calls.put("events().find(sessionId, eventId)", () -> store.events().find(session, id("missing")));
    calls.put("events().read(sessionId, query)", () -> store.events().read(session, EventQuery.all()));
    calls.put("runs().save(write)", () -> store.runs().save(RunWrite.of("r", session)));
    calls.put("runs().find(sessionId, runId)", () -> store.runs().find(session, "r"));
    calls.put("runs().active(sessionId)", () -> store.runs().active(session));
    calls.put("commit(step)", () -> store.commit(Step.builder(session).event(event(id("e"))).build()));
    calls.put("capabilities()", () -> store.capabilities());
    calls.put("sessions().fork(sessionId, atSeq)", () -> store.sessions().fork(session, 1));
    calls.put("toolCalls()", () -> store.toolCalls());
    calls.put("summaries()", () -> store.summaries());
    calls.put("checkpoints()", () -> store.checkpoints());
    calls.put("modelCalls()", () -> store.modelCalls());
    calls.put("archives()", () -> store.archives());
    calls.put("retention()", () -> store.retention());

    calls.forEach((what, call) -> {
      Object answer;
      try {
        answer = call.get();
      } catch (SessionStoreException refused) {
        return;
      }
      assertThat(answer).as("what %s answered", what).isNotNull();
    });
  }
}
