package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.internal.StoreInternals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Waiting reads hold no connection while they wait: many of them share a small pool with the writers. The append is
 * made only once all twenty are seen parked, so each must be woken by it.
 */
class WaitingReadConnectionsTest {

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("Twenty waiting reads on a pool of three connections leave room for the append that wakes them all")
  void waitersDoNotPinConnections() throws Exception {
    SessionStore store = schema.store(schema.pool(3), builder -> builder.waitPollInterval(Duration.ofMinutes(10)));
    ExecutorService readers = Executors.newFixedThreadPool(20);
    List<CompletableFuture<EventPage>> reads = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      reads.add(CompletableFuture.supplyAsync(
          () -> store.events().await("s", EventQuery.all(), Duration.ofSeconds(30)), readers));
    }
    Eventually.until("twenty waiting reads parked", () -> StoreInternals.parkedReads(store, "s") == 20);

    Event appended = store.events().append("s", NewEvent.of("message"));

    for (CompletableFuture<EventPage> read : reads) {
      assertThat(read.get(40, TimeUnit.SECONDS).items()).containsExactly(appended);
    }
    readers.shutdown();
  }
}
