package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.cassandra.FaultySession.Fault;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import dev.sessionstore.spi.RetryCause;
import dev.sessionstore.spi.SettledOutcome;
import dev.sessionstore.spi.StoreEventSource;
import dev.sessionstore.spi.StoreEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store events of the Cassandra adapter, on the shared single node: doubts it settled and how, retries of writes
 * that lost the race for a partition, calls its sweeper expired, parked waiting reads and their wake latency.
 */
class CassandraStoreEventsTest {

  private final FaultySession faulty = new FaultySession(SharedCluster.session());
  private final String namespace = UUID.randomUUID().toString();
  private final List<SessionStore> stores = new ArrayList<>();

  private SessionStore store(CassandraSessionStore.Builder builder) {
    SessionStore store = builder.session(faulty.session()).keyspace("session_store_tests").namespace(namespace)
        .replicationFactor(SharedCluster.replicationFactor()).build();
    stores.add(store);
    return store;
  }

  private SessionStore store() {
    return store(CassandraSessionStore.builder());
  }

  private static Recorder record(SessionStore store) {
    Recorder recorder = new Recorder();
    StoreEventSource.of(store).subscribe(recorder);
    return recorder;
  }

  @AfterEach
  void close() {
    stores.forEach(SessionStore::close);
  }

  @Test
  void aWriteFoundAppliedAfterItsAnswerWasLostIsSettledOnceAsApplied() {
    SessionStore store = store();
    Recorder events = record(store);
    store.events().append("s", NewEvent.of("first").withId("e1"));
    faulty.failBatch(1, Fault.APPLIED_ANSWER_LOST);

    assertThat(store.events().append("s", NewEvent.of("second").withId("e2")).seq()).isEqualTo(2);

    assertThat(events.settled).containsExactly(SettledOutcome.APPLIED);
    assertThat(events.retries).isEmpty();
  }

  @Test
  void aWriteFoundMissingAfterItWasLostIsSettledOnceAsNotApplied() {
    SessionStore store = store();
    Recorder events = record(store);
    faulty.failBatch(1, Fault.NOT_SENT);

    assertThat(store.events().append("s", NewEvent.of("a").withId("a")).seq()).isEqualTo(1);

    assertThat(events.settled).containsExactly(SettledOutcome.NOT_APPLIED);
    assertThat(store.events().lastSeq("s")).isEqualTo(1);
  }

  @Test
  void aCleanWriteReportsNothing() {
    SessionStore store = store();
    Recorder events = record(store);

    store.events().appendAll("s", List.of(NewEvent.of("a").withId("a"), NewEvent.of("b").withId("b")));

    assertThat(events.settled).isEmpty();
    assertThat(events.retries).isEmpty();
    assertThat(events.woken).isEmpty();
  }

  /**
   * Two instances append to one session from four threads each: their conditional batches race for the partition's
   * head, and each batch that loses is written again: reported as a conflict retry; no append is lost.
   */
  @Test
  void writesThatLoseTheRaceForThePartitionAreRetriedAsConflicts() throws Exception {
    List<SessionStore> instances = List.of(store(), store());
    List<Recorder> recorders = instances.stream().map(CassandraStoreEventsTest::record).toList();
    int threads = 8;
    int perThread = 25;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        SessionStore instance = instances.get(t % 2);
        int thread = t;
        writers.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            instance.events().append("hot", NewEvent.of("msg").withId(thread + "-" + i));
          }
          return null;
        }));
      }
      for (Future<?> writer : writers) {
        writer.get(3, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    int appends = threads * perThread;
    assertThat(instances.get(0).events().read("hot", EventQuery.all().limit(appends)).items())
        .extracting(Event::seq).containsExactlyElementsOf(LongStream.rangeClosed(1, appends).boxed().toList());
    long conflicts = recorders.stream().flatMap(recorder -> recorder.retries.stream())
        .filter(cause -> cause == RetryCause.CONFLICT).count();
    assertThat(conflicts).as("retries after a lost race, both instances").isPositive();
  }

  @Test
  void aCallItsSweeperExpiresIsReportedOnce() throws Exception {
    SessionStore store = store(CassandraSessionStore.builder().sweepInterval(Duration.ofMillis(100)));
    Recorder events = record(store);
    store.events().append("s", NewEvent.of("call").withId("request"));
    store.toolCalls().save(ToolCallWrite.of("call-1", "s", "search")
        .withDeadline(Instant.now().plusMillis(300)));

    eventually("the sweeper fired the deadline", () -> events.fired.get() == 1);

    assertThat(store.toolCalls().find("s", "call-1")).map(call -> call.status()).contains(ToolCallStatus.EXPIRED);
    Thread.sleep(500); // several more sweeps: none fires the expired call again
    assertThat(events.fired).hasValue(1);
  }

  @Test
  void aWaitingReadIsCountedParkedAndItsWakeByThisInstanceTimed() throws Exception {
    SessionStore store = store(CassandraSessionStore.builder().pollInterval(Duration.ofSeconds(5)));
    Recorder events = record(store);
    StoreEventSource source = StoreEventSource.of(store);
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try {
      Future<EventPage> waiting = reader.submit(() -> store.events().await("s", EventQuery.all(),
          Duration.ofSeconds(30)));
      eventually("the read parked", () -> source.parkedReads() == 1);

      long before = System.nanoTime();
      store.events().append("s", NewEvent.of("answer").withId("a"));
      EventPage page = waiting.get(10, TimeUnit.SECONDS);
      long bound = System.nanoTime() - before;

      assertThat(page.items()).extracting(Event::id).containsExactly("a");
      assertThat(source.parkedReads()).isZero();
      assertThat(events.woken).hasSize(1);
      assertThat(events.woken.get(0)).isLessThanOrEqualTo(Duration.ofNanos(bound));
    } finally {
      reader.shutdownNow();
    }
  }

  private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as(what + " within 30 s").isNegative();
      Thread.sleep(20);
    }
  }

  /** Records every event a store reports. */
  private static final class Recorder implements StoreEvents {

    final List<RetryCause> retries = new CopyOnWriteArrayList<>();
    final List<SettledOutcome> settled = new CopyOnWriteArrayList<>();
    final AtomicInteger fired = new AtomicInteger();
    final List<Duration> woken = new CopyOnWriteArrayList<>();

    @Override
    public void retried(RetryCause cause) {
      retries.add(cause);
    }

    @Override
    public void outcomeSettled(SettledOutcome outcome) {
      settled.add(outcome);
    }

    @Override
    public void deadlineFired() {
      fired.incrementAndGet();
    }

    @Override
    public void readWoken(Duration sinceCommit) {
      woken.add(sinceCommit);
    }
  }
}
