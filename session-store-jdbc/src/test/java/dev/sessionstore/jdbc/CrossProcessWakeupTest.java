package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Waiting reads wake on appends made through another store instance (another pool, as another process has). The
 * waiting store polls only every 10 minutes and waits at most 30 seconds, so an event it returns reached it by
 * notification, not by polling.
 */
class CrossProcessWakeupTest {

  private static final Duration NEVER_POLLS = Duration.ofMinutes(10);
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("A waiting read in one instance returns the event another instance appends")
  void waitingReadWakesOnAnotherInstancesAppend() throws Exception {
    SessionStore waiting = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS));
    SessionStore writing = schema.store(builder -> builder);

    assertWakesOn(waiting, writing, "session-1");
  }

  @Test
  @DisplayName("Sessions with ids too long for a notification payload wake through their digest")
  void longSessionIdsWakeToo() throws Exception {
    SessionStore waiting = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS));
    SessionStore writing = schema.store(builder -> builder);

    assertWakesOn(waiting, writing, "session-" + "x".repeat(200));
  }

  @Test
  @DisplayName("After its LISTEN connection is killed, the listener reconnects and waiting reads still wake")
  void listenerSurvivesALostConnection() throws Exception {
    SessionStore waiting = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS));
    SessionStore writing = schema.store(builder -> builder);

    Object killed = schema.queryValue("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
        + " WHERE query LIKE ?", "LISTEN \"session_store." + schema.name() + ".%");
    assertThat(((Number) killed).intValue()).as("LISTEN connections terminated").isGreaterThanOrEqualTo(1);

    assertWakesOn(waiting, writing, "after-reconnect");
  }

  private static void assertWakesOn(SessionStore waiting, SessionStore writing, String session) throws Exception {
    writing.events().append(session, NewEvent.of("first").withId("first"));
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
        () -> waiting.events().await(session, EventQuery.all().after(1), WAIT));
    Thread.sleep(300);
    assertThat(read).as("the read waits while nothing new is appended").isNotDone();

    Event appended = writing.events().append(session, NewEvent.of("second").withId("second"));

    EventPage page = read.get(WAIT.toSeconds() + 10, TimeUnit.SECONDS);
    assertThat(page.items()).as("events the waiting read returned").containsExactly(appended);
  }
}
