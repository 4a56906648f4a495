package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.cassandra.CassandraSessionStore;
import dev.sessionstore.cassandra.cluster.CassandraCluster;
import dev.sessionstore.cassandra.cluster.WaitsAcrossOutage;
import dev.sessionstore.spi.Expiry;
import dev.sessionstore.spi.StoreEventSource;
import dev.sessionstore.spi.StoreEvents;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Nodes of a real 3-node Cassandra cluster (replication factor 3, the fixture of the adapter's test jar) killed with
 * {@code kill -9} under writers, on many sessions and on one hot session, all on one long-lived store that owns its
 * driver session, as an application's would (guarantees 1, 4 and 17 of docs/guarantees.md). Each writer moves on to a
 * new batch after a failure and keeps the failed one aside with its reported outcome; once the cluster is whole,
 * every acknowledged event must be stored once at its acknowledged seq, every session gapless, no failed batch
 * stored at all and no unknown one stored in part. Tool-call deadlines set before a node is killed, some by a store
 * closed before the kill, must fall due while it is down and be fired by the deadline sweep of the store that stays
 * (guarantee 10): every call expired once, by that sweep, with its deadline's expiry result, soon after its
 * deadline. Waits pending while two nodes are down keep waiting until their timeout and see what is written once a
 * quorum is back ({@link WaitsAcrossOutage}, guarantee 17). Heavy (three server JVMs): only the
 * {@code cassandra-cluster} profile runs it.
 */
@Tag("cassandra-cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CassandraNodeFaultTest {

  private static final int MANY_WRITERS = 6;
  private static final int SESSIONS_PER_WRITER = 20;
  private static final int HOT_WRITERS = 4;
  private static final int BATCH = 3;
  /** Long enough for the driver's default reconnection delays to grow past 30 s (1, 2, 4, 8, 16 s...). */
  private static final Duration QUORUM_LOST_FOR = Duration.ofSeconds(40);
  private static final Duration RECOVERY_BOUND = Duration.ofSeconds(15);
  /** How often every store of the test sweeps for due deadlines (the builder's default is 1 s). */
  private static final Duration SWEEP_INTERVAL = Duration.ofMillis(200);
  /** Tool calls with deadlines registered by each of the two stores of {@link #oneNodeKilledAndRestarted}. */
  private static final int DEADLINES_PER_STORE = 3;
  /**
   * From the first registration to the first deadline: long enough to register every call, close a store and kill
   * the node on a loaded machine (5 s seen).
   */
  private static final Duration FIRST_DEADLINE_AFTER = Duration.ofSeconds(10);
  /** How long the killed node stays down after the last deadline fell due, at least: a few sweeps. */
  private static final Duration DOWN_AFTER_LAST_DEADLINE = Duration.ofSeconds(2);
  /**
   * With one node down, the longest a writer may go without an acknowledgement, and a sweep may take to expire a call
   * after its deadline.
   */
  private static final Duration ONE_NODE_DOWN_BOUND = Duration.ofSeconds(15);

  /** The timeout of the waits of {@link #waitsOutliveQuorumLoss} that end while the quorum is lost. */
  private static final Duration WAIT_TIMING_OUT_IN_OUTAGE = Duration.ofSeconds(10);
  /** The timeout of its waits that outlive the quorum loss, as in the report. */
  private static final Duration WAIT_OUTLIVING_OUTAGE = Duration.ofSeconds(240);

  private static CassandraCluster cluster;
  private final List<SessionStore> stores = new ArrayList<>();

  @BeforeAll
  static void start() {
    cluster = CassandraCluster.start(3);
    System.out.println("CassandraNodeFaultTest: 3 nodes started in " + cluster.startTimes());
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @org.junit.jupiter.api.AfterEach
  void closeStores() {
    stores.forEach(SessionStore::close);
    stores.clear();
  }

  /** A store with its own driver session on every node, in {@code namespace}, sweeping deadlines every 200 ms. */
  private SessionStore store(String namespace) {
    SessionStore store = CassandraSessionStore.builder().contactPoints(cluster.contactPoints(), "datacenter1")
        .keyspace("faults").namespace(namespace).replicationFactor(3).sweepInterval(SWEEP_INTERVAL).build();
    stores.add(store);
    return store;
  }

  @Test
  @Order(1)
  @DisplayName("kill -9 of one node under writers, then its restart: every acknowledged append is stored once at its"
      + " seq, gapless, no partial batch, and writing never stops for long; deadlines set before the kill, also by a"
      + " store closed since, fire through the sweep of the store that stays")
  void oneNodeKilledAndRestarted() throws Exception {
    String namespace = UUID.randomUUID().toString();
    SessionStore store = store(namespace);
    Scenario scenario = new Scenario(store);
    AckGaps gaps = new AckGaps(scenario.ledger);
    try {
      gaps.watch(Duration.ofSeconds(5));
      SessionStore closedBeforeTheKill = store(namespace);
      Deadlines deadlines = new Deadlines(store, Instant.now().plus(FIRST_DEADLINE_AFTER));
      deadlines.register(closedBeforeTheKill, "deadline-of-a-closed-store-");
      closedBeforeTheKill.close();
      deadlines.register(store, "deadline-of-the-sweeping-store-");
      long killed = System.nanoTime();
      cluster.kill(3);
      Instant down = Instant.now();
      gaps.watch(Duration.ofSeconds(10));
      gaps.watch(Duration.between(Instant.now(), deadlines.last().plus(DOWN_AFTER_LAST_DEADLINE)));
      Instant restarting = Instant.now();
      cluster.restart(3);
      long back = System.nanoTime();
      gaps.watch(Duration.ofSeconds(10));
      scenario.stop();
      deadlines.verify(store, down, restarting);
      Outcome outcome = scenario.verify(store(namespace));
      System.out.printf("CassandraNodeFaultTest, one node killed: node 3 down %d ms; %s; longest time without an"
          + " acknowledgement: %d ms%n", TimeUnit.NANOSECONDS.toMillis(back - killed), outcome,
          TimeUnit.NANOSECONDS.toMillis(gaps.longest()));
      assertThat(outcome.ackedEvents()).as("events acknowledged").isPositive();
      assertThat(gaps.longest()).as("longest pause of all writers").isLessThan(ONE_NODE_DOWN_BOUND.toNanos());
    } finally {
      scenario.stop();
    }
  }

  @Test
  @Order(2)
  @DisplayName("Quorum lost (two nodes killed) under writers: writes fail fast with honest outcomes, and the same"
      + " long-lived store writes again soon after a quorum is back")
  void quorumLostAndBack() throws Exception {
    String namespace = UUID.randomUUID().toString();
    SessionStore store = store(namespace);
    Scenario scenario = new Scenario(store);
    try {
      Thread.sleep(3_000);
      long killed = System.nanoTime();
      cluster.kill(1);
      cluster.kill(2);
      Thread.sleep(QUORUM_LOST_FOR.toMillis());
      long ackedBeforeRestart = scenario.ledger.lastAcknowledgedNanos();
      cluster.restart(1);
      long back = System.nanoTime();
      long deadline = back + Duration.ofSeconds(120).toNanos();
      while (scenario.ledger.lastAcknowledgedNanos() < back && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      long resumed = scenario.ledger.lastAcknowledgedNanos();
      long freshFirstWrite = firstWriteOfAFreshStore(namespace);
      cluster.restart(2);
      Thread.sleep(5_000);
      scenario.stop();

      // failures that ended while the quorum was certainly lost: from 12 s after the kill (calls in flight at the kill
      // settled within the store's 10 s retry timeout) until the restart
      List<Long> outageLatencies = scenario.failureLatencies(killed + Duration.ofSeconds(12).toNanos(), back);
      System.out.printf("CassandraNodeFaultTest, quorum lost: nodes 1 and 2 down %d s; last acknowledgement %d ms"
              + " after the kill; failures while the quorum was lost: %d, latency p50 %d ms, max %d ms; after node 1"
              + " answered CQL again the long-lived store's writers were acknowledged after %s, a fresh store's first"
              + " write after %d ms%n", TimeUnit.NANOSECONDS.toSeconds(back - killed),
          TimeUnit.NANOSECONDS.toMillis(ackedBeforeRestart - killed), outageLatencies.size(),
          millis(percentile(outageLatencies, 50)), millis(percentile(outageLatencies, 100)),
          resumed < back ? "more than 120 s" : TimeUnit.NANOSECONDS.toMillis(resumed - back) + " ms",
          freshFirstWrite);
      Outcome outcome = scenario.verify(store(namespace));
      System.out.println("CassandraNodeFaultTest, quorum lost: " + outcome);
      assertThat(outageLatencies).as("writes tried while the quorum was lost").isNotEmpty();
      assertThat(percentile(outageLatencies, 50)).as("median failure latency without a quorum, ns")
          .isLessThan(Duration.ofSeconds(2).toNanos());
      assertThat(resumed).as("the long-lived store acknowledged a write after the quorum was back").isGreaterThan(back);
      assertThat(resumed - back).as("time from the quorum back to the long-lived store's next acknowledgement, ns")
          .isLessThan(RECOVERY_BOUND.toNanos());
    } finally {
      scenario.stop();
    }
  }

  @Test
  @Order(3)
  @DisplayName("Quorum lost (two nodes killed) under pending waits: those timing out meanwhile return as a timeout,"
      + " the others return the append and resolution made once a quorum is back, none throws")
  void waitsOutliveQuorumLoss() throws Exception {
    SessionStore store = store(UUID.randomUUID().toString());
    long started = System.nanoTime();
    WaitsAcrossOutage.Figures figures = WaitsAcrossOutage.run(store, WAIT_TIMING_OUT_IN_OUTAGE, WAIT_OUTLIVING_OUTAGE,
        () -> {
          cluster.kill(2);
          cluster.kill(3);
          sleep(WAIT_TIMING_OUT_IN_OUTAGE.plusSeconds(2));
        }, () -> cluster.restart(2));
    cluster.restart(3);
    System.out.printf("CassandraNodeFaultTest, waits across quorum loss: nodes 2 and 3 killed, node 2 restarted; %s;"
        + " %d s in all%n", figures, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during the outage", e);
    }
  }

  /** Milliseconds from building a new store on the cluster to its first acknowledged append. */
  private long firstWriteOfAFreshStore(String namespace) throws InterruptedException {
    long start = System.nanoTime();
    SessionStore fresh = store(namespace);
    for (int attempt = 0; ; attempt++) {
      try {
        fresh.events().append("fresh-" + attempt, NewEvent.of("probe"));
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      } catch (StoreFailureException e) {
        assertThat(System.nanoTime() - start).as("a fresh store writes within 120 s")
            .isLessThan(Duration.ofSeconds(120).toNanos());
        Thread.sleep(50);
      }
    }
  }

  private static long millis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  private static long percentile(List<Long> values, int percent) {
    if (values.isEmpty()) {
      return 0;
    }
    List<Long> sorted = values.stream().sorted().toList();
    int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  /** The writers of a test: {@value #MANY_WRITERS} on sessions of their own, {@value #HOT_WRITERS} on one. */
  private static final class Scenario {

    private final Ledger ledger = new Ledger();
    private final Running running = new Running();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<RotatingWriter> writers = new ArrayList<>();
    private final List<Future<?>> futures = new ArrayList<>();

    Scenario(SessionStore store) {
      for (int w = 0; w < MANY_WRITERS; w++) {
        int writer = w;
        writers.add(new RotatingWriter(store, IntStream.range(0, SESSIONS_PER_WRITER)
            .mapToObj(s -> "many-" + writer + "-" + s).toList(), "m" + w, BATCH, ledger, running));
      }
      for (int w = 0; w < HOT_WRITERS; w++) {
        writers.add(new RotatingWriter(store, List.of("hot"), "h" + w, BATCH, ledger, running));
      }
      writers.forEach(writer -> futures.add(threads.submit(writer)));
    }

    void stop() throws Exception {
      running.stop();
      for (Future<?> future : futures) {
        future.get(2, TimeUnit.MINUTES);
      }
      threads.shutdown();
    }

    /** The latencies of failed calls that ended between {@code from} and {@code to} ({@link System#nanoTime()}). */
    List<Long> failureLatencies(long from, long to) {
      return writers.stream().flatMap(writer -> writer.failures().stream())
          .filter(failure -> failure[1] >= from && failure[1] < to).map(failure -> failure[0]).toList();
    }

    /** Checks every outcome against what {@code reader} finds; asserts the ledger's rules and the accounting. */
    Outcome verify(SessionStore reader) {
      long unknownWritten = writers.stream().mapToLong(writer -> writer.verifyOutcomes(reader)).sum();
      Ledger.Verdict verdict = ledger.verify(reader);
      long unknown = writers.stream().mapToLong(RotatingWriter::unknown).sum();
      long failed = writers.stream().mapToLong(RotatingWriter::failed).sum();
      assertThat(verdict.found()).as("events stored = acknowledged + those of unknown outcomes found written")
          .isEqualTo(verdict.acknowledgedIds() + unknownWritten * BATCH);
      return new Outcome(verdict.acknowledgedIds(), verdict.found(), verdict.lost(), unknown, unknownWritten, failed);
    }
  }

  /** The figures of a test: events acknowledged, stored and lost; outcomes reported unknown or failed. */
  private record Outcome(long ackedEvents, long storedEvents, long lostEvents, long unknown, long unknownWritten,
      long failed) {
    @Override
    public String toString() {
      return ackedEvents + " events acknowledged, " + storedEvents + " stored, " + lostEvents + " lost, 0 gaps,"
          + " 0 partial batches; outcomes: " + unknown + " unknown (" + unknownWritten + " of them written), "
          + failed + " failed with nothing written";
    }
  }

  /**
   * Pending tool calls registered with deadlines, each on a session of its own, due one after another from a first
   * deadline on, and how many deadlines the sweep of one store fired: its {@link StoreEvents#deadlineFired} reports
   * its own sweep's expiries only, never a read's.
   */
  private static final class Deadlines {

    private static final Duration SPACING = Duration.ofMillis(500);

    private final AtomicInteger fired = new AtomicInteger();
    private final List<ToolCall> registered = new ArrayList<>();
    private Instant next;

    /**
     * Counts the deadlines {@code sweeper}'s sweep fires from now on; the first call registered will be due at
     * {@code first} to the millisecond (a precision every store keeps).
     */
    Deadlines(SessionStore sweeper, Instant first) {
      this.next = first.truncatedTo(ChronoUnit.MILLIS);
      StoreEventSource.of(sweeper).subscribe(new StoreEvents() {
        @Override
        public void deadlineFired() {
          fired.incrementAndGet();
        }
      });
    }

    /**
     * Registers {@value #DEADLINES_PER_STORE} pending calls through {@code setter}, on sessions {@code sessionPrefix}
     * 0, 1..., each due {@link #SPACING} after the call registered before it.
     */
    void register(SessionStore setter, String sessionPrefix) {
      for (int i = 0; i < DEADLINES_PER_STORE; i++) {
        ToolCall call = setter.toolCalls().save(ToolCallWrite.of("call", sessionPrefix + i, "approve")
            .withDeadline(next));
        assertThat(call.deadline()).as("deadline of %s as stored", call.sessionId()).isEqualTo(next);
        registered.add(call);
        next = next.plus(SPACING);
      }
    }

    /** The deadline of the call registered last. */
    Instant last() {
      return registered.get(registered.size() - 1).deadline();
    }

    /**
     * Waits until the sweep fired as many deadlines as were registered, at most {@link #ONE_NODE_DOWN_BOUND} past the
     * last one, then reads every call back through {@code reader} (only then, so that no read expires a call in the
     * sweep's place), prints the figures (expiries before {@code restarting} counted as while the node was down), and
     * asserts: every deadline fell due after the node was {@code down}; the sweep fired as many as were registered;
     * each call is expired, with its deadline's expiry result, at most {@link #ONE_NODE_DOWN_BOUND} after its
     * deadline.
     */
    void verify(SessionStore reader, Instant down, Instant restarting) throws InterruptedException {
      Instant giveUp = last().plus(ONE_NODE_DOWN_BOUND);
      while (fired.get() < registered.size() && Instant.now().isBefore(giveUp)) {
        Thread.sleep(20);
      }
      int firedBySweep = fired.get();
      List<ToolCall> stored = registered.stream()
          .map(call -> reader.toolCalls().find(call.sessionId(), call.id()).orElseThrow()).toList();
      List<Long> latencies = IntStream.range(0, stored.size()).mapToObj(i -> Duration.between(
          registered.get(i).deadline(), stored.get(i).updatedAt()).toMillis()).toList();
      System.out.printf("CassandraNodeFaultTest, one node killed: deadlines: %d set before the kill (%d by a store"
              + " closed before it), %d fired by the sweep of the store that stayed (%d while node 3 was down),"
              + " expired after their deadlines by %s ms (p50 %d, max %d)%n", registered.size(), DEADLINES_PER_STORE,
          firedBySweep, stored.stream().filter(call -> call.updatedAt().isBefore(restarting)).count(), latencies,
          percentile(latencies, 50), percentile(latencies, 100));

      assertThat(registered).as("deadlines, due after node 3 was down at %s", down)
          .allSatisfy(call -> assertThat(call.deadline()).isAfter(down));
      assertThat(firedBySweep).as("deadlines the sweep fired, of %d registered", registered.size())
          .isEqualTo(registered.size());
      for (int i = 0; i < stored.size(); i++) {
        Instant deadline = registered.get(i).deadline();
        ToolCall call = stored.get(i);
        assertThat(call.status()).as("status of %s after its deadline", call.sessionId())
            .isEqualTo(ToolCallStatus.EXPIRED);
        assertThat(call.result()).as("result of %s", call.sessionId()).isEqualTo(Expiry.result(deadline));
        assertThat(call.updatedAt()).as("expiry of %s", call.sessionId())
            .isBetween(deadline, deadline.plus(ONE_NODE_DOWN_BOUND));
      }
    }
  }

  /** The longest time the writers went without an acknowledgement, sampled every 10 ms. */
  private static final class AckGaps {

    private final Ledger ledger;
    private long longest;
    private long lastChange = System.nanoTime();
    private long lastCount;

    AckGaps(Ledger ledger) {
      this.ledger = ledger;
    }

    void watch(Duration duration) throws InterruptedException {
      long end = System.nanoTime() + duration.toNanos();
      while (System.nanoTime() < end) {
        long count = ledger.acknowledgements();
        long now = System.nanoTime();
        if (count != lastCount) {
          lastCount = count;
          lastChange = now;
        }
        longest = Math.max(longest, now - lastChange);
        Thread.sleep(10);
      }
    }

    long longest() {
      return longest;
    }
  }
}
