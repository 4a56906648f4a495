package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The database stopped and started again twice while 8 writers append 5-event batches (guarantees 8 and 17 of
 * docs/guarantees.md): the store recovers by itself, nothing acknowledged is lost, and waiting reads and tool-call
 * waits that were waiting through the second restart return on time, and wake on an append and a resolution made after
 * it. The waiting store only wakes by notification (it polls every ten minutes). The PostgreSQL is this class's own.
 */
class DatabaseRestartTest {

  private static final int WRITERS = 8;
  private static final int BATCH = 5;
  private static final Duration BETWEEN_RESTARTS = Duration.ofSeconds(4);
  private static final Duration LONG_WAIT = Duration.ofSeconds(60);
  private static final Duration QUIET_WAIT = Duration.ofSeconds(8);
  private static final Duration MARGIN = Duration.ofSeconds(30);

  @RegisterExtension
  static final OwnedPostgres postgres = OwnedPostgres.perTestClass();

  @Test
  @DisplayName("Two restarts under 8 writers: the store recovers by itself, 0 acknowledged events are lost, and waits"
      + " return on time and wake after the restart")
  void restartsLoseNothing() throws Exception {
    String schema = Database.uniqueSchema("restart");
    StoreTuning patient = StoreTuning.defaults().retryTimeout(Duration.ofSeconds(60));
    OpenStores stores = new OpenStores(postgres, schema);
    SessionStore store = stores.store("writers", WRITERS + 2, patient);
    SessionStore checker = stores.store("checker", 2, patient);
    SessionStore waiter = stores.store("waiter", 2, patient.notificationsOnly());
    SessionStore peer = stores.store("peer", 2, patient);
    Ledger ledger = new Ledger();
    Running running = new Running();
    ExecutorService threads = Executors.newCachedThreadPool();
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      writers.add(threads.submit(new BatchWriter(store, checker, "restart-" + w % 4, "w" + w, BATCH, ledger,
          running)));
    }
    try {
      Thread.sleep(BETWEEN_RESTARTS.toMillis());
      long firstRecovery = restartAndMeasure(ledger);

      peer.toolCalls().save(ToolCallWrite.of("call-1", "waits", "approve"));
      long waitsStarted = System.nanoTime();
      CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
          () -> waiter.events().await("waits", EventQuery.all(), LONG_WAIT), threads);
      CompletableFuture<Optional<ToolCall>> call = CompletableFuture.supplyAsync(
          () -> waiter.toolCalls().await("waits", "call-1", LONG_WAIT), threads);
      CompletableFuture<Long> quiet = CompletableFuture.supplyAsync(() -> {
        EventPage page = waiter.events().await("quiet", EventQuery.all(), QUIET_WAIT);
        assertThat(page.isEmpty()).isTrue();
        return System.nanoTime() - waitsStarted;
      }, threads);
      Thread.sleep(BETWEEN_RESTARTS.toMillis());
      assertThat(read.isDone() || call.isDone()).as("waits still waiting before the restart").isFalse();
      long secondRecovery = restartAndMeasure(ledger);
      awaitListeners(4);
      long wakeSent = System.nanoTime();
      peer.events().append("waits", NewEvent.of("after-restart").withId("wake-1"));
      peer.toolCalls().resolve("waits", "call-1", ToolCallStatus.COMPLETED, Json.of("{\"approved\":true}"));
      EventPage woken = read.get(LONG_WAIT.plus(MARGIN).toSeconds(), TimeUnit.SECONDS);
      long readWoken = System.nanoTime();
      Optional<ToolCall> resolved = call.get(LONG_WAIT.plus(MARGIN).toSeconds(), TimeUnit.SECONDS);
      long callWoken = System.nanoTime();
      long quietElapsed = quiet.get(QUIET_WAIT.plus(MARGIN).toSeconds(), TimeUnit.SECONDS);

      Thread.sleep(BETWEEN_RESTARTS.toMillis());
      running.stop();
      for (Future<?> writer : writers) {
        writer.get(2, TimeUnit.MINUTES);
      }
      Ledger.Verdict verdict = ledger.verify(checker);
      System.out.printf("DatabaseRestartTest: 2 restarts under %d writers; first acknowledgement %d ms and %d ms after"
              + " the server was back; %d events acknowledged, %d found, %d lost; waits across the second restart:"
              + " a %d s waiting read returned empty after %d ms, a waiting read and a tool-call wait woke %d ms and"
              + " %d ms after the append and resolution%n", WRITERS, firstRecovery, secondRecovery,
          verdict.acknowledgedIds(), verdict.found(), verdict.lost(), QUIET_WAIT.toSeconds(),
          TimeUnit.NANOSECONDS.toMillis(quietElapsed), TimeUnit.NANOSECONDS.toMillis(readWoken - wakeSent),
          TimeUnit.NANOSECONDS.toMillis(callWoken - wakeSent));

      assertThat(verdict.found()).as("events found = acknowledged").isEqualTo(verdict.acknowledgedIds());
      assertThat(woken.items()).extracting(event -> event.id()).containsExactly("wake-1");
      assertThat(resolved).hasValueSatisfying(found -> assertThat(found.status()).isEqualTo(ToolCallStatus.COMPLETED));
      assertThat(readWoken - waitsStarted).as("woken before its timeout").isLessThan(LONG_WAIT.toNanos());
      assertThat(quietElapsed).as("the quiet wait returned at its timeout")
          .isBetween(QUIET_WAIT.toNanos(), QUIET_WAIT.plus(MARGIN).toNanos());
    } finally {
      running.stop();
      threads.shutdownNow();
      stores.close();
    }
  }

  /**
   * Stops and starts the database and returns the milliseconds from the server being back to the writers' next
   * acknowledgement.
   */
  private static long restartAndMeasure(Ledger ledger) throws InterruptedException {
    postgres.stop();
    postgres.startAgain();
    long back = System.nanoTime();
    long deadline = back + Duration.ofSeconds(60).toNanos();
    while (ledger.lastAcknowledgedNanos() < back) {
      assertThat(System.nanoTime()).as("writers acknowledged again within 60 s").isLessThan(deadline);
      Thread.sleep(1);
    }
    return TimeUnit.NANOSECONDS.toMillis(ledger.lastAcknowledgedNanos() - back);
  }

  /** Waits until {@code count} store listeners listen again on the restarted database. */
  private static void awaitListeners(int count) throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try (Connection connection = postgres.adminConnection();
           Statement statement = connection.createStatement();
           ResultSet rows = statement.executeQuery(
               "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN %'")) {
        rows.next();
        if (rows.getInt(1) >= count) {
          return;
        }
      }
      assertThat(System.nanoTime()).as("listeners back within 60 s").isLessThan(deadline);
      Thread.sleep(10);
    }
  }
}
