package dev.sessionstore.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.Session;
import dev.sessionstore.jdbc.StatementCounter;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What {@code listSessions} costs on PostgreSQL, now that it returns each session's merged state (as ADK's
 * {@code InMemorySessionService} lists it): counted in SQL statements, not in time, for a user with 4 and with 16
 * sessions, each holding 10 or 130 events that change its state. The store's background deadline sweep and
 * notifications are off, so that only the listing's statements count.
 */
class ListSessionsCostTest {

  @Test
  @DisplayName("listSessions with state: a constant number of statements per session, whatever its events")
  void costIsFlatPerSession() {
    Map<String, long[]> costs = new LinkedHashMap<>();
    for (int sessions : new int[] {4, 16}) {
      for (int events : new int[] {10, 130}) {
        costs.put(sessions + "x" + events, listingCost(sessions, events));
      }
    }
    System.out.println("listSessions statements (first listing, next listing) by sessions x events: "
        + costs.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()[0] + "/" + e.getValue()[1]).toList());

    // a page of sessions and the app's and user's state: 5 statements; then per session its state snapshot, the
    // events after it (none to read when the snapshot is current) and its last event: at most 3, never more with
    // more events (a session's snapshot is refreshed every 64 events, so at most 63 events are folded per session)
    for (int events : new int[] {10, 130}) {
      long four = costs.get("4x" + events)[1];
      long sixteen = costs.get("16x" + events)[1];
      assertThat((sixteen - four) % 12).as("the same cost for every session").isZero();
      long perSession = (sixteen - four) / 12;
      assertThat(perSession).as("statements per listed session of %d events", events).isBetween(2L, 3L);
      assertThat(four - 4 * perSession).as("statements per listing").isEqualTo(5);
    }
    assertThat(costs.get("16x130")[1]).as("more events per session never cost more")
        .isLessThanOrEqualTo(costs.get("16x10")[1]);
  }

  /**
   * The statements of a first and of a second {@code listSessions} of a user with {@code sessions} sessions of
   * {@code events} events each (the first may write state snapshots), after checking what the listing returns.
   */
  private static long[] listingCost(int sessions, int events) {
    try (CountedPostgres database = new CountedPostgres("adk_list_cost")) {
      StatementCounter counter = database.counter;
      SessionStoreSessionService service = SessionStoreSessionService.builder(database.store).build();
      for (int s = 0; s < sessions; s++) {
        Session session = service.createSession("app", "alice", new HashMap<>(Map.of("created", s)), "s" + s)
            .blockingGet();
        for (int e = 0; e < events; e++) {
          ConcurrentMap<String, Object> delta = new ConcurrentHashMap<>();
          delta.put("turn", e);
          if (e == 0) {
            delta.put("user:name", "Alice");
          }
          service.appendEvent(session, Event.builder().timestamp(1_000L + e)
              .actions(EventActions.builder().stateDelta(delta).build()).build()).blockingGet();
        }
      }

      long before = counter.statements();
      List<Session> first = service.listSessions("app", "alice").blockingGet().sessions();
      long firstCost = counter.statements() - before;
      before = counter.statements();
      List<Session> next = service.listSessions("app", "alice").blockingGet().sessions();
      long nextCost = counter.statements() - before;

      assertThat(next).hasSize(sessions);
      for (int s = 0; s < sessions; s++) {
        Session listed = next.get(s);
        assertThat(listed.id()).isEqualTo("s" + s);
        assertThat(listed.events()).isEmpty();
        assertThat(listed.state()).containsOnly(Map.entry("created", s), Map.entry("turn", events - 1),
            Map.entry("user:name", "Alice"));
        assertThat(first.get(s).state()).isEqualTo(listed.state());
      }
      return new long[] {firstCost, nextCost};
    }
  }
}
