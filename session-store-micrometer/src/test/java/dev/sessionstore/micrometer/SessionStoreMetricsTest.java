package dev.sessionstore.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.conformance.TestClock;
import dev.sessionstore.memory.InMemorySessionStore;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link SessionStoreMetrics} over an in-memory store seen through an observed store (so the events pass a
 * decorator and the validating layer): the meters move with real operations. Retries and settled outcomes need a
 * database; their meters are tested on PostgreSQL in session-store-jdbc (PostgresStoreMetricsTest).
 */
class SessionStoreMetricsTest {

  private final TestClock clock = new TestClock();
  private final SessionStore store = ObservedSessionStore.builder(InMemorySessionStore.builder().clock(clock).build())
      .registry(ObservationRegistry.NOOP).build();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SessionStoreMetrics metrics = SessionStoreMetrics.of(store, "memory");

  @AfterEach
  void close() {
    metrics.close();
    store.close();
  }

  @Test
  @DisplayName("every meter is registered at zero with its adapter tag, each cause and result on its own counter")
  void registersEveryMeterAtZero() {
    metrics.bindTo(registry);

    assertThat(registry.find("session.store.retries").counters()).extracting(c -> c.getId().getTag("cause"))
        .containsExactlyInAnyOrder("serialization", "deadlock", "conflict", "connection");
    assertThat(registry.find("session.store.outcomes.settled").counters())
        .extracting(c -> c.getId().getTag("result"))
        .containsExactlyInAnyOrder("applied", "not-applied", "ran-again");
    assertThat(registry.get("session.store.deadlines.fired").counter().count()).isZero();
    assertThat(registry.get("session.store.reads.parked").gauge().value()).isZero();
    assertThat(registry.get("session.store.reads.wake").timer().count()).isZero();
    assertThat(registry.getMeters()).hasSize(4 + 3 + 3)
        .allSatisfy(meter -> assertThat(meter.getId().getTags()).contains(Tag.of("adapter", "memory")));
  }

  @Test
  @DisplayName("a deadline the store fires under the test clock counts once")
  void countsAFiredDeadline() throws Exception {
    metrics.bindTo(registry);
    store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
    store.toolCalls().expireAfter("s", "c", Duration.ofMillis(20));
    clock.advance(Duration.ofSeconds(1));

    awaitTrue(() -> registry.get("session.store.deadlines.fired").counter().count() == 1);
  }

  @Test
  @DisplayName("the gauge shows a waiting read while it is parked, and the timer records its wake once appended")
  void gaugesParkedReadsAndTimesTheirWake() throws Exception {
    metrics.bindTo(registry);
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
        () -> store.events().await("s", EventQuery.all(), Duration.ofSeconds(30)));
    awaitTrue(() -> registry.get("session.store.reads.parked").gauge().value() == 1);
    long beforeAppend = System.nanoTime();

    store.events().append("s", NewEvent.of("message").withId("e1"));

    assertThat(read.get(10, TimeUnit.SECONDS).items()).hasSize(1);
    long sinceAppend = System.nanoTime() - beforeAppend;
    assertThat(registry.get("session.store.reads.parked").gauge().value()).isZero();
    assertThat(registry.get("session.store.reads.wake").timer().count()).isEqualTo(1);
    assertThat(registry.get("session.store.reads.wake").timer().totalTime(TimeUnit.NANOSECONDS))
        .isBetween(0.0, (double) sinceAppend);
  }

  @Test
  @DisplayName("bound to two registries, both count; once closed, neither counts more")
  void bindsToSeveralRegistriesAndStops() throws Exception {
    SimpleMeterRegistry second = new SimpleMeterRegistry();
    metrics.bindTo(registry);
    metrics.bindTo(second);
    fireDeadline("c1");
    awaitTrue(() -> second.get("session.store.deadlines.fired").counter().count() == 1
        && registry.get("session.store.deadlines.fired").counter().count() == 1);

    metrics.close();
    fireDeadline("c2");
    awaitTrue(() -> store.toolCalls().find("s", "c2").orElseThrow().status().name().equals("EXPIRED"));
    Thread.sleep(100);

    assertThat(registry.get("session.store.deadlines.fired").counter().count()).isEqualTo(1);
    assertThat(second.get("session.store.deadlines.fired").counter().count()).isEqualTo(1);
  }

  @Test
  @DisplayName("no session id becomes a tag value")
  void noSessionIdInTags() throws Exception {
    metrics.bindTo(registry);
    fireDeadline("c1");
    awaitTrue(() -> registry.get("session.store.deadlines.fired").counter().count() == 1);

    assertThat(registry.getMeters()).flatExtracting(meter -> meter.getId().getTags())
        .extracting(Tag::getValue).doesNotContain("s", "c1");
  }

  @Test
  @DisplayName("the adapter tag defaults to the adapter's class name; a bad one is refused naming the field")
  void adapterTag() {
    SessionStoreMetrics.of(store).bindTo(registry);

    assertThat(registry.get("session.store.deadlines.fired").counter().getId().getTag("adapter"))
        .isEqualTo("InMemorySessionStore");
    assertThatThrownBy(() -> SessionStoreMetrics.of(store, "  "))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("adapter"));
    assertThatThrownBy(() -> SessionStoreMetrics.of(null, "memory"))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("store"));
  }

  private void fireDeadline(String toolCallId) {
    store.toolCalls().save(ToolCallWrite.of(toolCallId, "s", "tool"));
    store.toolCalls().expireAfter("s", toolCallId, Duration.ofMillis(10));
    clock.advance(Duration.ofSeconds(1));
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 10 s").isLessThan(end);
      Thread.sleep(5);
    }
  }
}
