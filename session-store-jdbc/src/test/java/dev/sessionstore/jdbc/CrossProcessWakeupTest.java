package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.internal.StoreInternals;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Waiting reads wake on appends made through another store instance (another pool, as another process has). The
 * waiting store polls only every 10 minutes and waits at most 30 seconds, and every append is made only once the
 * waiting read is seen parked ({@link StoreInternals#parkedReads}: it has read, found nothing and waits), so an event
 * it returns reached it by notification, not by its first read or by polling.
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
        + " WHERE query LIKE ?", "%LISTEN \"session_store." + schema.name() + ".%");
    assertThat(((Number) killed).intValue()).as("LISTEN connections terminated").isGreaterThanOrEqualTo(1);

    assertWakesOn(waiting, writing, "after-reconnect");
  }

  @Test
  @DisplayName("A burst of appends to many sessions through one instance wakes every waiting read of another")
  void burstOfAppendsWakesEverySession() throws Exception {
    SessionStore waiting = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS));
    SessionStore writing = schema.store(builder -> builder);
    int sessions = 40;
    ExecutorService pool = Executors.newFixedThreadPool(sessions + 4);
    try {
      List<CompletableFuture<EventPage>> reads = new ArrayList<>();
      for (int i = 0; i < sessions; i++) {
        String session = "burst-" + i;
        reads.add(CompletableFuture.supplyAsync(
            () -> waiting.events().await(session, EventQuery.all().after(2), WAIT), pool));
      }
      Eventually.until("every waiting read parked", () -> IntStream.range(0, sessions)
          .allMatch(i -> StoreInternals.parkedReads(waiting, "burst-" + i) == 1));
      List<CompletableFuture<Void>> writes = new ArrayList<>();
      for (int writer = 0; writer < 4; writer++) {
        int first = writer;
        writes.add(CompletableFuture.runAsync(() -> {
          for (int round = 1; round <= 3; round++) {
            for (int i = first; i < sessions; i += 4) {
              writing.events().append("burst-" + i, NewEvent.of("turn").withId("e-" + round));
            }
          }
        }, pool));
      }
      CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);

      for (int i = 0; i < sessions; i++) {
        EventPage page = reads.get(i).get(WAIT.toSeconds() + 10, TimeUnit.SECONDS);
        assertThat(page.items()).as("events of burst-%d the waiting read returned", i)
            .extracting(Event::id).containsExactly("e-3");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  @DisplayName("Closing an instance right after its append still wakes waiting reads elsewhere")
  void closeSendsPendingNotifications() throws Exception {
    SessionStore waiting = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS));
    SessionStore writing = schema.store(builder -> builder);
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
        () -> waiting.events().await("closing", EventQuery.all(), WAIT));
    awaitParked(waiting, "closing");

    Event appended = writing.events().append("closing", NewEvent.of("last words"));
    writing.close();

    assertThat(read.get(WAIT.toSeconds() + 10, TimeUnit.SECONDS).items()).containsExactly(appended);
  }

  @Test
  @DisplayName("Appends succeed when notifications cannot be sent; waiting reads elsewhere find them by polling")
  void appendsSurviveFailingNotifications() throws Exception {
    SessionStore waiting = schema.store(builder -> builder.waitPollInterval(Duration.ofMillis(200)));
    SessionStore writing = schema.store(withoutNotifications(schema.pool(10)), builder -> builder);
    CompletableFuture<EventPage> elsewhere = CompletableFuture.supplyAsync(
        () -> waiting.events().await("unannounced", EventQuery.all(), WAIT));
    CompletableFuture<EventPage> here = CompletableFuture.supplyAsync(
        () -> writing.events().await("unannounced", EventQuery.all(), WAIT));
    awaitParked(waiting, "unannounced");
    awaitParked(writing, "unannounced");

    Event appended = writing.events().append("unannounced", NewEvent.of("message"));

    assertThat(here.get(5, TimeUnit.SECONDS).items()).as("the writing instance's own waiting read")
        .containsExactly(appended);
    assertThat(elsewhere.get(5, TimeUnit.SECONDS).items()).as("another instance's waiting read, by polling")
        .containsExactly(appended);
  }

  /** {@code dataSource}, except that its connections refuse to prepare the statement that sends notifications. */
  private static DataSource withoutNotifications(DataSource dataSource) {
    InvocationHandler connections = (proxy, method, arguments) -> {
      if (method.getName().equals("getConnection")) {
        Connection connection = (Connection) method.invoke(dataSource, arguments);
        return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
            (connectionProxy, connectionMethod, connectionArguments) -> {
              if (connectionMethod.getName().equals("prepareStatement")
                  && ((String) connectionArguments[0]).contains("pg_notify(?, key)")) {
                throw new SQLException("notifications refused by the test");
              }
              try {
                return connectionMethod.invoke(connection, connectionArguments);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
      }
      try {
        return method.invoke(dataSource, arguments);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
        connections);
  }

  /** Returns once a waiting read of {@code session} in {@code store} has read, found nothing and waits. */
  static void awaitParked(SessionStore store, String session) throws InterruptedException {
    Eventually.until("a waiting read of " + session + " parked",
        () -> StoreInternals.parkedReads(store, session) == 1);
  }

  /**
   * Starts a waiting read of {@code session} in {@code waiting} and, once it is parked, appends through
   * {@code writing}: the read must return that event.
   */
  static void assertWakesOn(SessionStore waiting, SessionStore writing, String session) throws Exception {
    writing.events().append(session, NewEvent.of("first").withId("first"));
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
        () -> waiting.events().await(session, EventQuery.all().after(1), WAIT));
    awaitParked(waiting, session);
    assertThat(read).as("the read waits while nothing new is appended").isNotDone();

    Event appended = writing.events().append(session, NewEvent.of("second").withId("second"));

    EventPage page = read.get(WAIT.toSeconds() + 10, TimeUnit.SECONDS);
    assertThat(page.items()).as("events the waiting read returned").containsExactly(appended);
  }
}
