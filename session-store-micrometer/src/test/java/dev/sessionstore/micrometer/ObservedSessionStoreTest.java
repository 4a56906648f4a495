package dev.sessionstore.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.spi.ForwardingSessionStore;
import dev.sessionstore.spi.Interception;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ObservedSessionStoreTest {

  private final TestObservationRegistry registry = TestObservationRegistry.create();
  private final SessionStore store = observe(InMemorySessionStore.builder().modelCallAudit(true).build());

  @AfterEach
  void close() {
    store.close();
  }

  private SessionStore observe(SessionStore plain) {
    return ObservedSessionStore.builder(plain).registry(registry).adapter("memory").build();
  }

  @Test
  @DisplayName("Every operation of the store and of every aggregate is one observation named after it")
  void everyOperationIsObserved() {
    Json doc = Json.of("{\"a\":1}");
    store.sessions().save(SessionWrite.of("s").withName("n"));
    store.sessions().mergeMetadata("s", java.util.Map.of("k", "v"));
    store.sessions().find("s");
    store.sessions().findByName("n");
    store.sessions().list(SessionQuery.all());
    store.sessions().listResumable();
    store.events().append("s", NewEvent.of("t", doc).withId("e1"));
    store.events().append("s", NewEvent.of("t", doc).withId("e2"), 1);
    store.events().appendAll("s", List.of(NewEvent.of("t").withId("e3")));
    store.events().appendAll("s", List.of(NewEvent.of("t").withId("e4")), 3);
    store.events().lastSeq("s");
    store.events().find("s", "e1");
    store.events().read("s", EventQuery.all());
    store.events().await("s", EventQuery.all(), Duration.ZERO);
    store.runs().save(RunWrite.of("r", "s"));
    store.runs().find("s", "r");
    store.runs().list("s");
    store.runs().list("s", RunStatus.RUNNING);
    store.runs().active("s");
    store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
    store.toolCalls().find("s", "c");
    store.toolCalls().pending("s");
    store.toolCalls().expireAfter("s", "c", Duration.ofHours(1));
    store.toolCalls().expireAt("s", "c", java.time.Instant.now().plusSeconds(3600));
    store.toolCalls().cancelDeadline("s", "c");
    store.toolCalls().resolve("s", "c", ToolCallStatus.COMPLETED, doc);
    store.toolCalls().await("s", "c", Duration.ZERO);
    store.summaries().put("s", NewSummary.of(1, 2, doc));
    store.summaries().latest("s");
    store.summaries().list("s");
    store.summaries().revive("s");
    store.summaries().revive("s", "agent");
    store.summaries().chapter("s", 2);
    store.summaries().chapter("s", 2, "agent");
    store.checkpoints().put(CheckpointKey.of("s", "cp"), new byte[] {1});
    store.checkpoints().get(CheckpointKey.of("s", "cp"));
    store.checkpoints().delete(CheckpointKey.of("s", "cp"));
    store.modelCalls().record("s", NewModelCall.of(1, "m", doc));
    store.modelCalls().list("s");
    store.modelCalls().deleteOlderThan("s", Duration.ofDays(1));
    store.modelCalls().deleteOlderThan(Duration.ofDays(1));
    SessionArchive archive = store.archives().export("s").orElseThrow();
    store.archives().importSession(archive);
    store.archives().globalCheckpoints();
    store.checkpoints().put(CheckpointKey.global("g"), new byte[] {2});
    store.archives().importGlobalCheckpoint(store.archives().globalCheckpoints().get(0));
    store.commit(Step.builder("s").event(NewEvent.of("t").withId("e5")).build());
    store.sessions().fork("s", 1);
    store.sessions().fork("s", 1, "f");
    store.events().truncate("f", 1);
    store.sessions().delete("f");
    store.sessions().deleteByTenant("tenant");
    dev.sessionstore.RetentionPolicy policy =
        dev.sessionstore.RetentionPolicy.builder().deleteModelCallsOlderThan(Duration.ofDays(1)).build();
    store.retention().dryRun(policy);
    store.retention().apply(policy);
    store.search().find(SearchQuery.of("word"));

    assertThat(operations()).containsExactly(
        "sessions.save", "sessions.mergeMetadata", "sessions.find", "sessions.findByName", "sessions.list",
        "sessions.listResumable",
        "events.append", "events.append", "events.appendAll", "events.appendAll", "events.lastSeq", "events.find",
        "events.read", "events.await",
        "runs.save", "runs.find", "runs.list", "runs.list", "runs.active",
        "toolCalls.save", "toolCalls.find", "toolCalls.pending", "toolCalls.expireAfter", "toolCalls.expireAt",
        "toolCalls.cancelDeadline", "toolCalls.resolve", "toolCalls.await",
        "summaries.put", "summaries.latest", "summaries.list", "summaries.revive", "summaries.revive",
        "summaries.chapter", "summaries.chapter",
        "checkpoints.put", "checkpoints.get", "checkpoints.delete",
        "modelCalls.record", "modelCalls.list", "modelCalls.deleteOlderThan", "modelCalls.deleteOlderThan",
        "archives.export", "archives.importSession", "archives.globalCheckpoints", "checkpoints.put",
        "archives.globalCheckpoints", "archives.importGlobalCheckpoint",
        "commit", "sessions.fork", "sessions.fork", "events.truncate", "sessions.delete", "sessions.deleteByTenant",
        "retention.dryRun", "retention.apply", "search.find");
    TestObservationRegistryAssert.assertThat(registry)
        .forAllObservationsWithNameEqualTo(SessionStoreObservationConvention.NAME, observation -> observation
            .hasLowCardinalityKeyValue("adapter", "memory")
            .hasLowCardinalityKeyValue("outcome", "ok"));
  }

  @Test
  @DisplayName("Each outcome kind is its own tag value, with the failure recorded as the observation's error")
  void outcomesAreTagged() {
    store.events().append("s", NewEvent.of("t").withId("e1"));
    assertThatThrownBy(() -> store.events().append("s", NewEvent.of("t").withId("e2"), 0))
        .isInstanceOf(SeqConflictException.class);
    assertThatThrownBy(() -> store.events().append("s", NewEvent.of("other").withId("e1")))
        .isInstanceOf(DuplicateEventException.class);
    assertThat(store.toolCalls().resolve("s", "nope", ToolCallStatus.COMPLETED, null).stale()).isPresent();
    assertThatThrownBy(() -> store.sessions().mergeMetadata("unknown", java.util.Map.of("k", "v")))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> store.events().append(null, NewEvent.of("t")))
        .isInstanceOf(InvalidArgumentException.class);
    SessionArchive other = store.archives().export("s").orElseThrow()
        .withEvents(List.of());
    assertThat(store.archives().importSession(other)).isEqualTo(ImportOutcome.CONFLICT);

    assertThat(outcomes()).containsExactly("ok", "conflict", "duplicate", "stale", "not-found", "invalid", "ok",
        "conflict");
    assertThat(contexts().stream().map(context -> context.getError() == null ? "-" : context.getError().getClass().getSimpleName()))
        .containsExactly("-", "SeqConflictException", "DuplicateEventException", "-", "NotFoundException",
            "InvalidArgumentException", "-", "-");
  }

  @Test
  @DisplayName("An unknown outcome and a closed store are tagged unknown-outcome and failure")
  void unknownOutcomeAndFailureAreTagged() {
    SessionStore failing = observe(new Failing(InMemorySessionStore.builder().build()));
    assertThatThrownBy(() -> failing.events().append("s", NewEvent.of("t")))
        .isInstanceOf(OutcomeUnknownException.class);
    dev.sessionstore.EventLog events = failing.events();
    failing.close();
    assertThatThrownBy(() -> events.lastSeq("s")).isInstanceOf(StoreClosedException.class);

    assertThat(outcomes()).containsExactly("unknown-outcome", "failure");
  }

  @Test
  @DisplayName("A call the adapter settles by retrying inside itself is observed once, with its final outcome")
  void aSettledRetryIsObservedOnce() {
    AtomicInteger attempts = new AtomicInteger();
    SessionStore settling = observe(new Settling(InMemorySessionStore.builder().build(), attempts));

    settling.events().append("s", NewEvent.of("t", Json.of("{\"x\":1}")).withId("e1"));

    assertThat(attempts).as("attempts the adapter made").hasValue(2);
    assertThat(settling.events().read("s", EventQuery.all()).items()).hasSize(1);
    assertThat(operations()).containsExactly("events.append", "events.read");
    assertThat(outcomes()).containsExactly("ok", "ok");
    settling.close();
  }

  @Test
  @DisplayName("The session id is a high-cardinality key value only; tags are operation, adapter and outcome")
  void sessionIdIsNeverATag() {
    store.events().append("session-42", NewEvent.of("t"));

    Observation.Context context = contexts().get(0);
    assertThat(context.getLowCardinalityKeyValues().stream().map(KeyValue::getKey))
        .containsExactlyInAnyOrder("operation", "adapter", "outcome");
    assertThat(context.getHighCardinalityKeyValues().stream().map(KeyValue::getKey)).containsExactly("session.id");
    assertThat(context.getHighCardinalityKeyValue("session.id").getValue()).isEqualTo("session-42");
    assertThat(context.getContextualName()).isEqualTo("session-store events.append");
  }

  @Test
  @DisplayName("A search is timed like every other operation: search.find on the operation timer, its outcome tagged, "
      + "the searched session as session.id, a refused cursor as invalid")
  void searchIsObserved() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    ObservationRegistry observations = ObservationRegistry.create();
    observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    try (SessionStore observed = ObservedSessionStore.builder(InMemorySessionStore.builder().build())
        .registry(observations).adapter("memory").build()) {
      observed.events().append("s", NewEvent.of("t", Json.of("{\"text\":\"overdue invoice\"}")).withId("e1"));
      observed.events().append("s", NewEvent.of("t", Json.of("{\"text\":\"paid invoice\"}")).withId("e2"));

      assertThat(observed.supports(Capability.SEARCH)).isTrue();
      assertThat(observed.search().find(SearchQuery.of("invoice").session("s").limit(1)).hits()).hasSize(1);
      assertThatThrownBy(() -> observed.search().find(SearchQuery.of("other").after("bm90LWEtY3Vyc29y")))
          .isInstanceOf(InvalidArgumentException.class);

      assertThat(meters.get(SessionStoreObservationConvention.NAME).tag("operation", "search.find")
          .tag("adapter", "memory").tag("outcome", "ok").timer().count()).isEqualTo(1);
      assertThat(meters.get(SessionStoreObservationConvention.NAME).tag("operation", "search.find")
          .tag("outcome", "invalid").timer().count()).isEqualTo(1);
    }
    store.search().find(SearchQuery.of("invoice").session("session-7"));
    assertThat(operations()).containsExactly("search.find");
    assertThat(contexts().get(0).getHighCardinalityKeyValue("session.id").getValue()).isEqualTo("session-7");
  }

  @Test
  @DisplayName("Waiting reads parked show on the active long-task timer of events.await until an append wakes them")
  void parkedWaitsAreCounted() throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    ObservationRegistry observations = ObservationRegistry.create();
    observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    try (SessionStore observed = ObservedSessionStore.builder(InMemorySessionStore.builder().build())
        .registry(observations).adapter("memory").build()) {
      CompletableFuture<EventPage> waiter = CompletableFuture.supplyAsync(
          () -> observed.events().await("s", EventQuery.all(), Duration.ofMinutes(1)));
      LongTaskTimer parked = awaitMeter(() -> meters.find("session.store.operation.active")
          .tag("operation", "events.await").longTaskTimer());
      while (parked.activeTasks() == 0) {
        Thread.onSpinWait();
      }
      assertThat(parked.activeTasks()).isEqualTo(1);

      observed.events().append("s", NewEvent.of("t"));

      assertThat(waiter.get(1, TimeUnit.MINUTES).items()).hasSize(1);
      assertThat(parked.activeTasks()).isZero();
      Timer awaited = meters.get("session.store.operation").tag("operation", "events.await")
          .tag("outcome", "ok").tag("adapter", "memory").timer();
      assertThat(awaited.count()).isEqualTo(1);
    }
  }

  @Test
  @DisplayName("The builder requires a registry and names the default adapter after the wrapped store")
  void builderRules() {
    SessionStore plain = InMemorySessionStore.builder().build();
    assertThatThrownBy(() -> ObservedSessionStore.builder(plain).build())
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("registry");
    assertThatThrownBy(() -> ObservedSessionStore.builder(plain).registry(registry).registry(registry))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("already set");
    try (SessionStore observed = ObservedSessionStore.builder(plain).registry(registry).build()) {
      observed.events().lastSeq("s");
    }
    assertThat(contexts().get(0).getLowCardinalityKeyValue("adapter").getValue())
        .isEqualTo("InMemorySessionStore");
  }

  private static <T> T awaitMeter(Supplier<T> find) {
    T found = find.get();
    while (found == null) {
      Thread.onSpinWait();
      found = find.get();
    }
    return found;
  }

  private List<String> operations() {
    return keyValues("operation");
  }

  private List<String> outcomes() {
    return keyValues("outcome");
  }

  private List<String> keyValues(String key) {
    List<String> values = new ArrayList<>();
    contexts().forEach(context -> values.add(context.getLowCardinalityKeyValue(key).getValue()));
    return values;
  }

  /** The contexts of every observation the registry handled, in the order they started. */
  private List<Observation.Context> contexts() {
    List<Observation.Context> handled = new ArrayList<>();
    TestObservationRegistryAssert.assertThat(registry).hasHandledContextsThatSatisfy(handled::addAll);
    return handled;
  }

  /** An adapter whose appends fail with an unknown outcome, as a JDBC store's do when the database stays down. */
  private static final class Failing extends ForwardingSessionStore {
    Failing(SessionStore delegate) {
      super(delegate, new Interception() {
        @Override
        public <T> T around(String operation, String sessionId, Supplier<T> call) {
          if (operation.equals("events.append")) {
            throw new OutcomeUnknownException("connection lost during commit", null);
          }
          return call.get();
        }
      });
    }
  }

  /**
   * An adapter that settles a doubtful commit by running the call again, as the JDBC store does after a connection
   * lost during commit: the first attempt is stored but its answer lost, the second replays it.
   */
  private static final class Settling extends ForwardingSessionStore {
    Settling(SessionStore delegate, AtomicInteger attempts) {
      super(delegate, new Interception() {
        @Override
        public <T> T around(String operation, String sessionId, Supplier<T> call) {
          if (operation.equals("events.append")) {
            attempts.incrementAndGet();
            call.get();
            attempts.incrementAndGet();
          }
          return call.get();
        }
      });
    }
  }
}
