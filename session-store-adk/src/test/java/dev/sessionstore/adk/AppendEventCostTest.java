package dev.sessionstore.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.Session;
import dev.sessionstore.jdbc.StatementCounter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What {@code appendEvent} costs on PostgreSQL, counted in SQL statements, not in time: the session's lookup, one
 * append per shared scope the event's delta touches ({@code app:}, {@code user:}), and the event's append; no read of
 * a shared log's session per event (its metadata is written when a session is created). The store's background
 * deadline sweep and notifications are off, so that only the appends' statements count.
 */
class AppendEventCostTest {

  @Test
  @DisplayName("appendEvent: 2 statements, plus 1 per shared scope its delta touches")
  void statementsPerAppend() {
    try (CountedPostgres database = new CountedPostgres("adk_append_cost")) {
      StatementCounter counter = database.counter;
      SessionStoreSessionService service = SessionStoreSessionService.builder(database.store).build();
      Session session = service.createSession("app", "alice", null, "s").blockingGet();

      assertThat(cost(counter, service, session, Map.of("turn", 1))).as("session keys only").isEqualTo(2);
      assertThat(cost(counter, service, session, Map.of("turn", 2, "user:city", "Paris"))).as("and a user: key")
          .isEqualTo(3);
      assertThat(cost(counter, service, session, Map.of("turn", 3, "user:city", "Rome", "app:mode", "fast")))
          .as("and an app: key").isEqualTo(4);
      for (int turn = 4; turn < 10; turn++) {
        assertThat(cost(counter, service, session, Map.of("turn", turn, "user:city", "Oslo " + turn)))
            .as("the same for every later event").isEqualTo(3);
      }

      assertThat(service.getSession("app", "alice", "s", Optional.empty()).blockingGet().state())
          .containsEntry("turn", 9).containsEntry("user:city", "Oslo 9").containsEntry("app:mode", "fast");
    }
  }

  /** The statements one {@code appendEvent} of an event with {@code delta} runs. */
  private static long cost(StatementCounter counter, SessionStoreSessionService service, Session session,
      Map<String, Object> delta) {
    Event event = Event.builder().author("agent")
        .actions(EventActions.builder().stateDelta(new ConcurrentHashMap<>(delta)).build()).build();
    long before = counter.statements();
    service.appendEvent(session, event).blockingGet();
    return counter.statements() - before;
  }
}
