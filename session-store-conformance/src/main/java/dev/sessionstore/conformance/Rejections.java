package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sessionstore.Capability;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.ModelCall;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * Checks a rejection the way guarantee 15 of docs/guarantees.md asks: the call fails with an {@link
 * InvalidArgumentException} naming the field, the store's data is unchanged (every session with its log, runs and,
 * where the store has them, pending tool calls, summaries and model-call audit rows), and the store still appends and
 * reads.
 */
final class Rejections {

  private final SessionStore store;
  private final String servingSession;
  private final Supplier<NewEvent> freshEvents;

  /**
   * @param servingSession the session the "still serving" check appends to and reads
   * @param freshEvents    a new event with an unused id on each call
   */
  Rejections(SessionStore store, String servingSession, Supplier<NewEvent> freshEvents) {
    this.store = store;
    this.servingSession = servingSession;
    this.freshEvents = freshEvents;
  }

  /** Everything the kit can see of one session. */
  private record SessionData(List<Event> events, List<Run> runs, List<ToolCall> pending, List<Summary> summaries,
      List<ModelCall> modelCalls) {
  }

  private Map<Session, SessionData> snapshot() {
    Map<Session, SessionData> data = new LinkedHashMap<>();
    for (Session session : store.sessions().list(SessionQuery.all()).items()) {
      String id = session.id();
      data.put(session, new SessionData(
          Events.readAll(store.events(), id),
          store.runs().list(id),
          store.supports(Capability.TOOL_CALLS) ? store.toolCalls().pending(id) : List.of(),
          store.supports(Capability.SUMMARIES) ? store.summaries().list(id) : List.of(),
          store.supports(Capability.MODEL_CALL_AUDIT) ? store.modelCalls().list(id) : List.of()));
    }
    return data;
  }

  /**
   * Asserts that {@code call} is rejected with an {@link InvalidArgumentException} naming {@code field} (or, when
   * {@code field} ends with {@code "["}, a field starting with it), that the store's data is unchanged, and that
   * the store still appends and reads.
   */
  void assertRejected(String what, String field, ThrowingCallable call) {
    Map<Session, SessionData> before = snapshot();

    Throwable thrown = catchThrowable(call);

    assertThat(thrown).as("%s: the error", what).isInstanceOf(InvalidArgumentException.class);
    String named = ((InvalidArgumentException) thrown).field();
    if (field.endsWith("[")) {
      assertThat(named).as("%s: the field the error names", what).startsWith(field);
    } else {
      assertThat(named).as("%s: the field the error names", what).isEqualTo(field);
    }
    assertThat(snapshot()).as("%s: the store's data after the rejection", what).isEqualTo(before);
    assertServing(what);
  }

  /** Asserts that the store still appends to and reads the serving session, after {@code after}. */
  void assertServing(String after) {
    long latest = store.events().lastSeq(servingSession);
    Event appended = store.events().append(servingSession, freshEvents.get());
    assertThat(appended.seq()).as("seq of an append after %s", after).isEqualTo(latest + 1);
    assertThat(store.events().read(servingSession, EventQuery.all().last(1)).items()).as("read after %s", after)
        .containsExactly(appended);
  }
}
