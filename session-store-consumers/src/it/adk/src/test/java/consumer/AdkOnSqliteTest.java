package consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.sessionstore.SessionStore;
import dev.sessionstore.adk.SessionStoreSessionService;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * session-store-adk as an ADK app has it, on a SQLite file under target/: {@code createSession},
 * {@code appendEvent}, {@code getSession} and {@code listSessions} through ADK's own types and RxJava, then a new
 * store over the same file (the app restarted) gives the same session, events and state back.
 */
class AdkOnSqliteTest {

  private static SessionStore open(Path file) {
    return JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + file).build();
  }

  @Test
  void sessionEventsAndStateSurviveReopening() throws Exception {
    Path file = Path.of("target", "adk.db");
    Files.deleteIfExists(file);
    try (SessionStore store = open(file)) {
      BaseSessionService sessions = SessionStoreSessionService.builder(store).build();
      Session session = sessions.createSession("weather-app", "ada", Map.of("city", "Paris"), "s-1").blockingGet();
      sessions.appendEvent(session, Event.builder().id("e-1").author("user").timestamp(1_000)
          .content(Content.fromParts(Part.fromText("Weather?"))).build()).blockingGet();
      sessions.appendEvent(session, Event.builder().id("e-2").author("model").timestamp(2_000)
          .content(Content.fromParts(Part.fromText("Sunny.")))
          .actions(EventActions.builder().stateDelta(Map.of("answered", true, "user:visits", 1)).build()).build())
          .blockingGet();
      assertEquals(2, session.events().size(), "appendEvent adds to the caller's session");
    }

    try (SessionStore store = open(file)) {
      BaseSessionService sessions = SessionStoreSessionService.builder(store).build();
      Session read = sessions.getSession("weather-app", "ada", "s-1", Optional.empty()).blockingGet();
      assertNotNull(read, "the session is in the file");
      assertEquals(List.of("e-1", "e-2"), read.events().stream().map(Event::id).toList());
      assertEquals("Sunny.", read.events().get(1).content().orElseThrow().text());
      assertEquals(Map.of("city", "Paris", "answered", true, "user:visits", 1), Map.copyOf(read.state()));
      assertEquals(List.of("s-1"), sessions.listSessions("weather-app", "ada").blockingGet().sessionIds());
      assertEquals(List.of(), sessions.listSessions("weather-app", "bob").blockingGet().sessionIds());
    }
  }
}
