package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.Revival;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What the kit cannot see of Cassandra retention, on the shared cluster: two store instances (on two driver
 * sessions, as two processes) applying one policy at once remove each session, chapter and audit row once, and
 * their reports add up to exactly that; instances built with a schedule sweep once per interval between them, from
 * the sweep the cluster records; a cut log reads back the same from another instance after the first closed,
 * and a truncation below the cut continues from it; reads after a cut cost the same whether it removed 990 events or
 * 9,990, counted in requests, pages and the rows and tombstone cells the replica read.
 */
class CassandraRetentionTest {

  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant LATER = START.plus(Duration.ofDays(10));

  private final List<AutoCloseable> opened = new ArrayList<>();

  private SessionStore store(CqlSession session, String namespace, Instant now) {
    return open(configure(session, namespace, now));
  }

  private static CassandraSessionStore.Builder configure(CqlSession session, String namespace, Instant now) {
    return CassandraSessionStore.builder().session(session).keyspace("session_store_tests")
        .namespace(namespace).replicationFactor(SharedCluster.replicationFactor())
        .clock(Clock.fixed(now, ZoneOffset.UTC)).modelCallAudit(true);
  }

  private SessionStore open(CassandraSessionStore.Builder builder) {
    SessionStore store = builder.build();
    opened.add(store);
    return store;
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : opened) {
      closeable.close();
    }
  }

  private static List<NewEvent> events(String prefix, int count) {
    return IntStream.rangeClosed(1, count).mapToObj(i -> NewEvent.of("message",
        Json.of("{\"text\":\"" + prefix + " " + i + "\"}")).withId(prefix + "-" + i)).toList();
  }

  private static List<Long> seqs(List<Event> events) {
    return events.stream().map(Event::seq).toList();
  }

  @Test
  @DisplayName("Two instances applying one policy at once delete, cut and clean each session once; reports add up")
  void twoInstancesRemoveEachThingOnce() throws Exception {
    String namespace = UUID.randomUUID().toString();
    SessionStore writer = store(SharedCluster.session(), namespace, START);
    int idle = 40;
    int longs = 20;
    for (int i = 0; i < idle; i++) {
      writer.sessions().save(SessionWrite.of("idle-" + i).withStatus(SessionStatus.COMPLETED));
    }
    for (int i = 0; i < longs; i++) {
      String sessionId = "long-" + i;
      writer.events().appendAll(sessionId, events(sessionId, 12));
      writer.summaries().put(sessionId, NewSummary.of(1, 8, Json.of("{}")));
      writer.modelCalls().record(sessionId, NewModelCall.of(1, "model", Json.of("{}")));
      writer.modelCalls().record(sessionId, NewModelCall.of(2, "model", Json.of("{}")));
    }
    RetentionPolicy policy = RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(5))
        .onlyStatuses(SessionStatus.COMPLETED).keepEventsPerSession(4)
        .deleteModelCallsOlderThan(Duration.ofDays(5)).build();
    SessionStore first = store(SharedCluster.session(), namespace, LATER);
    SessionStore second = store(SharedCluster.peerSession(), namespace, LATER);
    assertThat(first.retention().dryRun(policy)).as("dry run before")
        .isEqualTo(new RetentionReport(true, idle, 8L * longs, 2L * longs));

    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<RetentionReport> reports = new ArrayList<>();
    try {
      List<Future<RetentionReport>> runs = new ArrayList<>();
      for (SessionStore store : List.of(first, second)) {
        runs.add(pool.submit(() -> {
          go.await();
          return store.retention().apply(policy);
        }));
      }
      go.countDown();
      for (Future<RetentionReport> run : runs) {
        reports.add(run.get());
      }
    } finally {
      pool.shutdownNow();
    }
    System.out.println("retention by two instances at once: " + reports);

    RetentionReport sum = reports.get(0).plus(reports.get(1));
    assertThat(sum).as("both reports added up").isEqualTo(new RetentionReport(false, idle, 8L * longs, 2L * longs));
    for (int i = 0; i < idle; i++) {
      assertThat(writer.sessions().find("idle-" + i)).as("idle-%d", i).isEmpty();
    }
    for (int i = 0; i < longs; i++) {
      String sessionId = "long-" + i;
      assertThat(seqs(writer.events().read(sessionId, EventQuery.all()).items())).as(sessionId)
          .containsExactly(9L, 10L, 11L, 12L);
      assertThat(writer.modelCalls().list(sessionId)).as("audit rows of %s", sessionId).isEmpty();
    }
    assertThat(first.retention().apply(policy)).as("a third application").isEqualTo(RetentionReport.none(false));
  }

  @Test
  @DisplayName("Instances built with a schedule sweep their namespace once per interval of the store clock between "
      + "them, counted from the last sweep the cluster records, also in an instance built later")
  void theScheduleIsHeldByTheCluster() throws InterruptedException {
    String namespace = UUID.randomUUID().toString();
    SessionStore writer = store(SharedCluster.session(), namespace, START);
    RetentionPolicy idle = RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(5)).build();
    Duration interval = Duration.ofMillis(50);
    writer.sessions().save(SessionWrite.of("first"));
    open(configure(SharedCluster.session(), namespace, LATER).retention(idle, interval));
    open(configure(SharedCluster.peerSession(), namespace, LATER).retention(idle, interval));
    awaitDeleted(writer, "first");

    writer.sessions().save(SessionWrite.of("second"));
    Thread.sleep(1_000);
    assertThat(writer.sessions().find("second"))
        .as("an idle session, 20 intervals of wall time later: the instances' clocks stand still at the sweep the "
            + "first claimed, so no other is due")
        .isPresent();

    open(configure(SharedCluster.peerSession(), namespace, LATER.plus(interval)).retention(idle, interval));
    awaitDeleted(writer, "second");
  }

  private static void awaitDeleted(SessionStore store, String sessionId) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (store.sessions().find(sessionId).isPresent() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(store.sessions().find(sessionId)).as("%s, 20 s after it was due", sessionId).isEmpty();
  }

  @Test
  @DisplayName("A cut log reads back the same from another instance after the first closed; a truncation below the "
      + "cut continues from it")
  void aCutLogSurvivesARestart() {
    String namespace = UUID.randomUUID().toString();
    SessionStore before = store(SharedCluster.session(), namespace, START);
    before.events().appendAll("cut", events("cut", 30));
    before.summaries().put("cut", NewSummary.of(1, 10, Json.of("{\"upTo\":10}")));
    before.summaries().put("cut", NewSummary.of(11, 20, Json.of("{\"upTo\":20}")));
    assertThat(before.retention().apply(RetentionPolicy.builder().keepEventsPerSession(10).build()).events())
        .as("events cut").isEqualTo(20);
    List<Event> kept = before.events().read("cut", EventQuery.all()).items();
    Revival revival = before.summaries().revive("cut");
    SessionArchive archive = before.archives().export("cut").orElseThrow();
    before.close();

    SessionStore after = store(SharedCluster.peerSession(), namespace, START);
    assertThat(seqs(kept)).as("log after the cut").isEqualTo(IntStream.rangeClosed(21, 30).asLongStream().boxed()
        .toList());
    assertThat(after.events().read("cut", EventQuery.all()).items()).as("log read by another instance")
        .isEqualTo(kept);
    assertThat(after.events().read("cut", EventQuery.all().last(50)).items()).as("tail of 50").isEqualTo(kept);
    assertThat(after.events().lastSeq("cut")).as("last seq").isEqualTo(30);
    assertThat(after.summaries().revive("cut")).as("revival").isEqualTo(revival);
    assertThat(after.archives().export("cut").orElseThrow()).as("export").isEqualTo(archive);
    assertThat(archive.cutSeq()).as("cut seq of the export").isEqualTo(20);
    assertThat(after.events().find("cut", "cut-5")).as("a cut event by id").isEmpty();
    assertThatThrownBy(() -> after.sessions().fork("cut", 20)).as("fork at a cut seq")
        .isInstanceOf(NotFoundException.class);
    assertThat(seqs(after.events().read(after.sessions().fork("cut", 22).id(), EventQuery.all()).items()))
        .as("fork at a kept seq").containsExactly(21L, 22L);
    assertThat(after.events().append("cut", NewEvent.of("message").withId("cut-5")).seq())
        .as("an id of a cut event appended again").isEqualTo(31);

    after.events().truncate("cut", 15);
    assertThat(after.events().read("cut", EventQuery.all()).items()).as("log truncated below the cut").isEmpty();
    assertThat(after.events().lastSeq("cut")).as("last seq truncated below the cut").isEqualTo(14);
    assertThat(after.events().append("cut", NewEvent.of("message").withId("again")).seq())
        .as("seq of the next append").isEqualTo(15);
    assertThat(seqs(after.events().read("cut", EventQuery.all()).items())).as("log after it").containsExactly(15L);
    assertThat(after.archives().export("cut").orElseThrow().cutSeq()).as("cut seq after it").isEqualTo(14);
  }

  @Test
  @DisplayName("A read that starts where this instance last saw the log cut is checked: after another instance "
      + "deleted the session and wrote it again, the whole new log reads back")
  void whereAReadStartsIsChecked() {
    String namespace = UUID.randomUUID().toString();
    SessionStore reader = store(SharedCluster.session(), namespace, START);
    SessionStore other = store(SharedCluster.peerSession(), namespace, START);
    reader.events().appendAll("reused", events("old", 12));
    reader.summaries().put("reused", NewSummary.of(1, 8, Json.of("{}")));
    assertThat(reader.retention().apply(RetentionPolicy.builder().keepEventsPerSession(4).build()).events())
        .as("events cut").isEqualTo(8);
    assertThat(seqs(reader.events().read("reused", EventQuery.all()).items())).as("log after the cut")
        .containsExactly(9L, 10L, 11L, 12L);

    other.sessions().delete("reused");
    other.events().appendAll("reused", events("new", 12));

    List<Long> all = IntStream.rangeClosed(1, 12).asLongStream().boxed().toList();
    assertThat(seqs(reader.events().read("reused", EventQuery.all().last(20)).items()))
        .as("tail of 20 of the new log").isEqualTo(all);
    assertThat(seqs(reader.events().read("reused", EventQuery.all()).items())).as("the new log").isEqualTo(all);
    other.events().truncate("reused", 3);
    assertThat(seqs(reader.events().read("reused", EventQuery.all()).items())).as("the new log truncated at 3")
        .containsExactly(1L, 2L);
  }

  @Test
  @DisplayName("A cut longer than one batch has room for is one cut: its id rows that do not fit go in later "
      + "batches, and an id appended again meanwhile keeps its row")
  void aCutLargerThanABatch() {
    String namespace = UUID.randomUUID().toString();
    SessionStore store = open(configure(SharedCluster.session(), namespace, START).maxMutationBytes(64 * 1024));
    for (int from = 0; from < 600; from += 50) {
      store.events().appendAll("large", events("large-" + from, 50));
    }
    store.summaries().put("large", NewSummary.of(1, 550, Json.of("{}")));
    RetentionPolicy keep = RetentionPolicy.builder().keepEventsPerSession(50).build();
    assertThat(store.retention().dryRun(keep).events()).as("events a dry run would cut").isEqualTo(550);

    assertThat(store.retention().apply(keep).events()).as("events cut").isEqualTo(550);

    assertThat(seqs(store.events().read("large", EventQuery.all()).items())).as("log after the cut")
        .isEqualTo(LongStream.rangeClosed(551, 600).boxed().toList());
    assertThat(idRows(namespace, "large")).as("id rows left: those of the kept events").isEqualTo(50);
    assertThat(store.events().find("large", "large-0-1")).as("the first cut event by id").isEmpty();
    assertThat(store.events().append("large", NewEvent.of("message").withId("large-0-1")).seq())
        .as("its id appended again").isEqualTo(601);
    assertThat(idRows(namespace, "large")).as("id rows after that append").isEqualTo(51);
  }

  /** The id rows of the session's partition, counted in the table. */
  private static long idRows(String namespace, String sessionId) {
    return SharedCluster.session().execute("SELECT count(*) FROM session_store_tests.session_data WHERE ns = ? "
        + "AND session_id = ? AND kind = 'i'", namespace, sessionId).one().getLong(0);
  }

  @Test
  @DisplayName("Reads after a cut of 9,990 events cost what they cost after a cut of 990: requests, pages, rows and "
      + "tombstone cells")
  void readsAfterACutDoNotGrowWithTheCut() {
    TracedSession traced = new TracedSession();
    opened.add(traced);
    SessionStore store = traced.store(UUID.randomUUID().toString());
    opened.add(store);
    for (int length : List.of(1_000, 10_000)) {
      String sessionId = "cut-" + length;
      for (int from = 0; from < length; from += 500) {
        store.events().appendAll(sessionId, events(sessionId + "-" + from, 500));
      }
      store.summaries().put(sessionId, NewSummary.of(1, length - 10, Json.of("{}")));
    }
    RetentionPolicy keepTen = RetentionPolicy.builder().keepEventsPerSession(10).build();
    TracedSession.Cost cut = traced.measure(() -> assertThat(store.retention().apply(keepTen).events())
        .isEqualTo(990 + 9_990));
    System.out.println("retention cut of 990 and 9,990 events: " + cut);

    List<String> grown = new ArrayList<>();
    Map<String, Consumer<String>> calls = new LinkedHashMap<>();
    calls.put("read all", id -> store.events().read(id, EventQuery.all()));
    calls.put("tail read (last 50)", id -> store.events().read(id, EventQuery.all().last(50)));
    calls.put("revival", id -> store.summaries().revive(id));
    calls.put("export", id -> store.archives().export(id));
    for (Map.Entry<String, Consumer<String>> call : calls.entrySet()) {
      traced.measure(() -> call.getValue().accept("cut-1000"));
      traced.measure(() -> call.getValue().accept("cut-10000"));
      TracedSession.Cost small = traced.measure(() -> call.getValue().accept("cut-1000"));
      TracedSession.Cost large = traced.measure(() -> call.getValue().accept("cut-10000"));
      String line = call.getKey() + ": " + small + " after a cut of 990, " + large + " after a cut of 9,990";
      System.out.println("read cost after a cut on " + SharedCluster.cluster().size() + " node(s): " + line);
      assertThat(small.rows()).as("rows the traces show for %s", call.getKey()).isPositive();
      if (large.requests() != small.requests() || large.pages() != small.pages()
          || large.rows() > small.rows() + 2 || large.tombstones() > small.tombstones() + 2) {
        grown.add(line);
      }
    }
    assertThat(grown).as("reads whose cost grows with the events cut").isEmpty();
  }
}
