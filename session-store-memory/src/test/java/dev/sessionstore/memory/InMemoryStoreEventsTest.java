package dev.sessionstore.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.RetryCause;
import dev.sessionstore.spi.StoreEventSource;
import dev.sessionstore.spi.StoreEventSubscription;
import dev.sessionstore.spi.StoreEvents;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The in-memory store reports the events of its deadline thread and of its waiting reads to its listeners. */
class InMemoryStoreEventsTest {

  private final HandClock clock = new HandClock();
  private final SessionStore store = InMemorySessionStore.builder().clock(clock).build();
  private final StoreEventSource source = StoreEventSource.of(store);
  private final Recorder recorder = new Recorder();
  private final StoreEventSubscription subscription = source.subscribe(recorder);

  @AfterEach
  void close() {
    subscription.close();
    store.close();
  }

  @Test
  @DisplayName("the store built by the builder is a source of events, through its validating layer")
  void isASource() {
    assertThat(source).isNotSameAs(StoreEventSource.NONE);
    assertThat(source.parkedReads()).isZero();
  }

  @Test
  @DisplayName("a deadline the store clock reached is fired by the deadline thread and reported once")
  void reportsADeadlineFiredUnderTheStoreClock() throws Exception {
    store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
    store.toolCalls().save(ToolCallWrite.of("later", "s", "tool"));
    store.toolCalls().expireAfter("s", "c", Duration.ofMillis(50));
    store.toolCalls().expireAfter("s", "later", Duration.ofHours(1));

    Thread.sleep(300);
    assertThat(recorder.deadlines.get()).as("fired while the store clock stood still").isZero();
    clock.advance(Duration.ofSeconds(1));

    awaitTrue(() -> recorder.deadlines.get() == 1, "the deadline fired");
    Thread.sleep(200);
    assertThat(recorder.deadlines.get()).as("only the due call, once").isEqualTo(1);
    assertThat(store.toolCalls().find("s", "later").map(ToolCall::status)).contains(ToolCallStatus.PENDING);
  }

  @Test
  @DisplayName("a deadline a read expired first is not reported as fired by the store")
  void aDeadlineExpiredByAReadIsNotFiredAgain() throws Exception {
    store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
    store.toolCalls().expireAfter("s", "c", Duration.ofMillis(200));
    clock.advance(Duration.ofSeconds(1));
    assertThat(store.toolCalls().find("s", "c").map(ToolCall::status)).contains(ToolCallStatus.EXPIRED);

    Thread.sleep(500);

    assertThat(recorder.deadlines.get()).isZero();
  }

  @Test
  @DisplayName("a waiting read is counted parked while it sleeps, released by the append, and reports its wake")
  void countsAParkedReadAndItsWakeLatency() throws Exception {
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
        () -> store.events().await("s", EventQuery.all(), Duration.ofSeconds(30)));
    awaitTrue(() -> source.parkedReads() == 1, "the read parked");
    long beforeAppend = System.nanoTime();

    store.events().append("s", NewEvent.of("message").withId("e1"));

    EventPage page = read.get(10, TimeUnit.SECONDS);
    long sinceAppend = System.nanoTime() - beforeAppend;
    assertThat(page.items()).hasSize(1);
    assertThat(source.parkedReads()).isZero();
    assertThat(recorder.wakes).singleElement().satisfies(latency ->
        assertThat(latency).isBetween(Duration.ZERO, Duration.ofNanos(sinceAppend)));
  }

  @Test
  @DisplayName("a read that finds its events at once is neither parked nor woken")
  void aReadAnsweredAtOnceReportsNoWake() {
    store.events().append("s", NewEvent.of("message").withId("e1"));

    assertThat(store.events().await("s", EventQuery.all(), Duration.ofSeconds(5)).items()).hasSize(1);

    assertThat(recorder.wakes).isEmpty();
    assertThat(source.parkedReads()).isZero();
  }

  @Test
  @DisplayName("a waiting read that times out is released and reports no wake")
  void aTimedOutReadReportsNoWake() {
    assertThat(store.events().await("s", EventQuery.all(), Duration.ofMillis(50)).items()).isEmpty();

    assertThat(recorder.wakes).isEmpty();
    assertThat(source.parkedReads()).isZero();
  }

  @Test
  @DisplayName("a tool-call wait is parked until the resolution, then reports its wake")
  void countsAParkedToolCallWait() throws Exception {
    store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
    CompletableFuture<Optional<ToolCall>> wait = CompletableFuture.supplyAsync(
        () -> store.toolCalls().await("s", "c", Duration.ofSeconds(30)));
    awaitTrue(() -> source.parkedReads() == 1, "the wait parked");

    store.toolCalls().resolve("s", "c", ToolCallStatus.COMPLETED, null);

    assertThat(wait.get(10, TimeUnit.SECONDS).map(ToolCall::status)).contains(ToolCallStatus.COMPLETED);
    assertThat(source.parkedReads()).isZero();
    assertThat(recorder.wakes).hasSize(1);
  }

  @Test
  @DisplayName("a listener that throws breaks no operation, and other listeners still get the event")
  void aThrowingListenerBreaksNothing() throws Exception {
    AtomicInteger thrown = new AtomicInteger();
    try (StoreEventSubscription throwing = source.subscribe(new StoreEvents() {
      @Override
      public void readWoken(Duration sinceCommit) {
        thrown.incrementAndGet();
        throw new IllegalStateException("listener failure");
      }
    })) {
      for (int i = 1; i <= 2; i++) {
        long after = i - 1;
        CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
            () -> store.events().await("s", EventQuery.all().after(after), Duration.ofSeconds(30)));
        awaitTrue(() -> source.parkedReads() == 1, "the read parked");
        store.events().append("s", NewEvent.of("message").withId("e" + i));
        assertThat(read.get(10, TimeUnit.SECONDS).items()).hasSize(1);
      }
    }
    assertThat(thrown.get()).isEqualTo(2);
    assertThat(recorder.wakes).hasSize(2);
  }

  @Test
  @DisplayName("a closed subscription gets no more events")
  void aClosedSubscriptionGetsNothing() throws Exception {
    subscription.close();
    store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
    store.toolCalls().expireAfter("s", "c", Duration.ofMillis(10));
    clock.advance(Duration.ofSeconds(1));
    awaitTrue(() -> store.toolCalls().find("s", "c").map(ToolCall::status).orElseThrow()
        == ToolCallStatus.EXPIRED, "the call expired");
    Thread.sleep(100);

    assertThat(recorder.deadlines.get()).isZero();
    assertThat(recorder.retries).isEmpty();
  }

  private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 10 s for: %s", what).isLessThan(end);
      Thread.sleep(5);
    }
  }

  /** Records what the store reports. */
  private static final class Recorder implements StoreEvents {
    final AtomicInteger deadlines = new AtomicInteger();
    final List<Duration> wakes = new CopyOnWriteArrayList<>();
    final List<RetryCause> retries = new CopyOnWriteArrayList<>();

    @Override
    public void deadlineFired() {
      deadlines.incrementAndGet();
    }

    @Override
    public void readWoken(Duration sinceCommit) {
      wakes.add(sinceCommit);
    }

    @Override
    public void retried(RetryCause cause) {
      retries.add(cause);
    }
  }
}
