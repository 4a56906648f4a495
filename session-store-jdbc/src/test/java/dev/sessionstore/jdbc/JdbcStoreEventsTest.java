package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.StoreEventSource;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A JDBC store counts its waiting reads parked and reports their wake latency when its own commit woke them, through
 * the public store the builder returns. The waiting stores poll every 10 minutes, so a read that returns was woken.
 * Retries, settled outcomes and swept deadlines are tested where their faults are made: DatabaseRetryTest,
 * SettledCommitTest and DurableDeadlineTest.
 */
class JdbcStoreEventsTest {

  private static final Duration NEVER_POLLS = Duration.ofMinutes(10);
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final TestSchema schema = new TestSchema();
  private final StoreEventsRecorder recorder = new StoreEventsRecorder();
  private final List<Duration> wakes = recorder.wakes;

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("A waiting read is parked until this instance's append, then released, and its wake latency is at"
      + " most the time from the append's start to the read's return")
  void ownAppendWakesAndIsTimed() throws Exception {
    SessionStore store = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS));
    StoreEventSource source = StoreEventSource.of(store);
    source.subscribe(recorder);
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
        () -> store.events().await("s-1", EventQuery.all(), WAIT));
    Eventually.until("the read parked", () -> source.parkedReads() == 1);
    long beforeAppend = System.nanoTime();

    store.events().append("s-1", NewEvent.of("message").withId("e-1"));

    assertThat(read.get(WAIT.toSeconds(), TimeUnit.SECONDS).items()).hasSize(1);
    long sinceAppend = System.nanoTime() - beforeAppend;
    assertThat(source.parkedReads()).isZero();
    assertThat(wakes).singleElement().satisfies(latency ->
        assertThat(latency).isBetween(Duration.ZERO, Duration.ofNanos(sinceAppend)));
  }

  @Test
  @DisplayName("A tool-call wait woken by this instance's resolve is timed too")
  void ownResolveWakesAToolCallWait() throws Exception {
    SessionStore store = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS));
    StoreEventSource source = StoreEventSource.of(store);
    source.subscribe(recorder);
    store.toolCalls().save(ToolCallWrite.of("c-1", "s-1", "search"));
    CompletableFuture<Optional<ToolCall>> wait = CompletableFuture.supplyAsync(
        () -> store.toolCalls().await("s-1", "c-1", WAIT));
    Eventually.until("the read parked", () -> source.parkedReads() == 1);

    store.toolCalls().resolve("s-1", "c-1", ToolCallStatus.COMPLETED, null);

    assertThat(wait.get(WAIT.toSeconds(), TimeUnit.SECONDS).map(ToolCall::status))
        .contains(ToolCallStatus.COMPLETED);
    assertThat(source.parkedReads()).isZero();
    assertThat(wakes).hasSize(1);
  }

  @Test
  @DisplayName("A read woken by another instance's append is counted parked, but not timed: its commit time is"
      + " not known here")
  void anotherInstancesAppendIsNotTimed() throws Exception {
    SessionStore waiting = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS));
    SessionStore writing = schema.store(builder -> builder);
    StoreEventSource source = StoreEventSource.of(waiting);
    source.subscribe(recorder);
    CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
        () -> waiting.events().await("s-1", EventQuery.all(), WAIT));
    Eventually.until("the read parked", () -> source.parkedReads() == 1);

    writing.events().append("s-1", NewEvent.of("message").withId("e-1"));

    assertThat(read.get(WAIT.toSeconds(), TimeUnit.SECONDS).items()).hasSize(1);
    assertThat(source.parkedReads()).isZero();
    assertThat(wakes).isEmpty();
  }

  @Test
  @DisplayName("A read that finds its events at once is neither parked nor timed")
  void aReadAnsweredAtOnceIsNotTimed() {
    SessionStore store = schema.store(builder -> builder.waitPollInterval(NEVER_POLLS));
    StoreEventSource.of(store).subscribe(recorder);
    store.events().append("s-1", NewEvent.of("message").withId("e-1"));

    assertThat(store.events().await("s-1", EventQuery.all(), WAIT).items()).hasSize(1);

    assertThat(wakes).isEmpty();
    assertThat(StoreEventSource.of(store).parkedReads()).isZero();
  }
}
