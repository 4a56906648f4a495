package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.jdbc.internal.StoreInternals;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Closing a store stops every thread it started and returns every connection it borrowed. */
class StoreCloseTest {

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("After close no thread of the store is alive and the pool has no active connection")
  void closeStopsThreadsAndReturnsConnections() throws Exception {
    HikariDataSource pool = schema.pool(5);
    SessionStore store = schema.store(pool, builder -> builder.deadlineSweepInterval(Duration.ofMillis(20))
        .keepAliveInterval(Duration.ofMillis(50)));
    store.toolCalls().save(ToolCallWrite.of("call-1", "s", "approve"));
    store.toolCalls().expireAfter("s", "call-1", Duration.ofMillis(1));
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
        () -> store.events().await("s", EventQuery.all(), Duration.ofSeconds(30)));
    CrossProcessWakeupTest.awaitParked(store, "s");
    store.events().append("s", NewEvent.of("message"));
    read.get(40, TimeUnit.SECONDS);
    assertThat(storeThreads()).as("threads while open").hasSize(3);

    store.close();

    assertThat(storeThreads()).as("threads of the store left after close").isEmpty();
    assertThat(pool.getHikariPoolMXBean().getActiveConnections()).as("connections still borrowed").isZero();
  }

  private List<String> storeThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.startsWith(StoreInternals.threadNamePrefix()) && name.contains(schema.name()))
        .toList();
  }
}
