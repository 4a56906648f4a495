package consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The round trip every store consumer runs, as the README's quick start writes it: a new session, a batch of two
 * events, the log read back with the seqs, ids and payloads the store acknowledged. Shared by the consumer projects
 * through their common build (added to each one's test sources).
 */
final class RoundTrip {

  private RoundTrip() {
  }

  /**
   * Runs the round trip on a fresh session of {@code store}, failing the test on any difference. The session's id
   * and name are new on every run, so a database that keeps earlier runs' sessions serves it again.
   */
  static void check(SessionStore store) {
    String sessionId = "consumer-" + UUID.randomUUID();
    String name = "round trip " + sessionId;
    store.sessions().save(SessionWrite.of(sessionId).withName(name));
    List<Event> appended = store.events().appendAll(sessionId, List.of(
        NewEvent.of("user_message", Json.from(Map.of("text", "hello"))).withId("m-1"),
        NewEvent.of("assistant_message", Json.from(Map.of("text", "hi there"))).withId("m-2")));

    List<Event> read = store.events().read(sessionId, EventQuery.all()).items();
    assertEquals(appended, read);
    assertEquals(List.of("m-1", "m-2"), read.stream().map(Event::id).toList());
    assertEquals(List.of(1L, 2L), read.stream().map(Event::seq).toList());
    assertEquals("hi there", read.get(1).payload().as(Map.class).get("text"));
    assertEquals(name, store.sessions().find(sessionId).orElseThrow().name());
  }
}
