package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import dev.sessionstore.micrometer.ObservedSessionStore;
import dev.sessionstore.micrometer.SessionStoreMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link SessionStoreMetrics} on a PostgreSQL store seen through an encrypting and an observed store: the meters of
 * the adapter's own events move with real operations, through both decorators.
 */
class PostgresStoreMetricsTest {

  private static final byte[] MASTER_KEY = "a master key of 32 bytes or more".getBytes(StandardCharsets.US_ASCII);

  private final TestSchema schema = new TestSchema();
  private final AtomicInteger refusals = new AtomicInteger();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private SessionStore store;
  private SessionStoreMetrics metrics;

  @BeforeEach
  void open() {
    SessionStore jdbc = schema.store(refusingWhenAsked(schema.pool(4)), builder -> builder
        .deadlineSweepInterval(Duration.ofMillis(50)).waitPollInterval(Duration.ofMinutes(10)));
    store = ObservedSessionStore.builder(EncryptingSessionStore.builder(jdbc)
            .keys(KeyProvider.of("metrics-key", MASTER_KEY)).build())
        .registry(ObservationRegistry.NOOP).adapter("postgresql").build();
    metrics = SessionStoreMetrics.of(store, "postgresql");
    metrics.bindTo(registry);
  }

  @AfterEach
  void close() {
    metrics.close();
    schema.close();
  }

  @Test
  @DisplayName("a connection the database refused is counted as one retry for the connection, and the call succeeds")
  void countsAConnectionRetry() {
    refusals.set(1);

    store.events().append("s-1", NewEvent.of("message").withId("e-1"));

    assertThat(registry.get("session.store.retries").tag("cause", "connection").counter().count()).isEqualTo(1);
    assertThat(registry.get("session.store.retries").tag("cause", "deadlock").counter().count()).isZero();
    assertThat(registry.find("session.store.outcomes.settled").counters())
        .allSatisfy(counter -> assertThat(counter.count()).as("nothing was in doubt").isZero());
    assertThat(store.events().lastSeq("s-1")).isEqualTo(1);
  }

  @Test
  @DisplayName("deadlines swept by the store count once each")
  void countsSweptDeadlines() throws Exception {
    for (int i = 0; i < 3; i++) {
      store.toolCalls().save(ToolCallWrite.of("c-" + i, "s-1", "tool"));
      store.toolCalls().expireAt("s-1", "c-" + i, Instant.now().minusSeconds(1));
    }
    store.toolCalls().save(ToolCallWrite.of("later", "s-1", "tool"));
    store.toolCalls().expireAfter("s-1", "later", Duration.ofHours(1));

    Eventually.until("three deadlines fired",
        () -> registry.get("session.store.deadlines.fired").counter().count() == 3);
    Thread.sleep(200); // a few more sweeps
    assertThat(registry.get("session.store.deadlines.fired").counter().count()).isEqualTo(3);
  }

  @Test
  @DisplayName("a parked waiting read shows on the gauge, and its wake by this instance's append is timed")
  void gaugesAndTimesAWaitingRead() throws Exception {
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
        () -> store.events().await("s-1", EventQuery.all(), Duration.ofSeconds(30)));
    Eventually.until("the read parked", () -> registry.get("session.store.reads.parked").gauge().value() == 1);

    store.events().append("s-1", NewEvent.of("message").withId("e-1"));

    assertThat(read.get(30, TimeUnit.SECONDS).items()).hasSize(1);
    assertThat(registry.get("session.store.reads.parked").gauge().value()).isZero();
    assertThat(registry.get("session.store.reads.wake").timer().count()).isEqualTo(1);
  }

  /** {@code pool}, refusing to lend a connection (SQLState 08001) as many times as {@link #refusals} says. */
  private DataSource refusingWhenAsked(DataSource pool) {
    return (DataSource) Proxy.newProxyInstance(PostgresStoreMetricsTest.class.getClassLoader(),
        new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
          if (method.getName().equals("getConnection") && refusals.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new SQLException("refused by the test", "08001");
          }
          try {
            return method.invoke(pool, arguments);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
