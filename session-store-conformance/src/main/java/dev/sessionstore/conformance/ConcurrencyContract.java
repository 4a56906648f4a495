package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Events.range;
import static dev.sessionstore.conformance.Events.readAll;
import static dev.sessionstore.conformance.Events.seqs;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Concurrency: gapless per-session sequencing under many writers (guarantee 1 of docs/guarantees.md), contiguous
 * batches (4), exactly one winner per expected seq (5), idempotency and upserts under races (3), and reads that never
 * see a hole (6).
 *
 * <p>Threads are released together by a start latch so that they really race, and every run is bounded by a
 * timeout: a deadlocked store fails instead of hanging the build.
 *
 * <p>If this fails, check: that the next seq is computed and the event inserted under one per-session lock (or
 * a row lock on the session / a unique constraint on (session, seq) with retry), never from a read outside the
 * write's transaction; that the stored-id lookup of the duplicate rule happens under the same lock; that the
 * expected-seq comparison and the insert are atomic; that implicit session creation is an upsert that tolerates a
 * concurrent creator; and that a metadata merge reads and writes the row atomically.
 */
public abstract class ConcurrencyContract extends Contract {

  private static final Duration BOUND = Duration.ofSeconds(60);

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected ConcurrencyContract(SessionStoreConformance kit) {
    super(kit);
  }

  private EventLog log() {
    return store.events();
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("16 threads appending 500 events each to one session get seqs 1..8000 with no gap and no duplicate")
  void manyThreadsAppendingToOneSessionGetGaplessSeqs() {
    String session = id("s");
    int threads = 16;
    int perThread = 500;

    List<List<Event>> returned = Race.run(threads, BOUND, t -> {
      List<Event> mine = new ArrayList<>(perThread);
      for (int i = 0; i < perThread; i++) {
        mine.add(log().append(session, event("t" + t + "-" + i)));
      }
      return mine;
    });

    int total = threads * perThread;
    for (int t = 0; t < threads; t++) {
      assertThat(seqs(returned.get(t))).as("seqs returned to thread %d, in its append order", t).isSorted();
    }
    List<Long> allReturned = returned.stream().flatMap(List::stream).map(Event::seq).sorted()
        .collect(Collectors.toList());
    assertThat(allReturned).as("seqs returned to all threads").containsExactlyElementsOf(range(1, total));

    List<Event> read = readAll(log(), session);
    assertThat(seqs(read)).as("seqs read back").containsExactlyElementsOf(range(1, total));
    assertThat(read.stream().map(Event::id).distinct().count()).as("distinct event ids read back").isEqualTo(total);
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(total);
    Map<String, Long> seqById = read.stream().collect(Collectors.toMap(Event::id, Event::seq));
    returned.stream().flatMap(List::stream).forEach(event ->
        assertThat(seqById.get(event.id())).as("seq read back for %s", event.id()).isEqualTo(event.seq()));
  }

  @Test
  @Tag("guarantee-1")
  @Tag("guarantee-4")
  @DisplayName("Concurrent batches interleave as contiguous blocks, each in its input order")
  void concurrentBatchesAreContiguousBlocks() {
    String session = id("s");
    int threads = 8;
    int batches = 40;
    int batchSize = 10;

    List<List<List<Event>>> returned = Race.run(threads, BOUND, t -> {
      List<List<Event>> mine = new ArrayList<>();
      for (int b = 0; b < batches; b++) {
        List<NewEvent> input = new ArrayList<>();
        for (int i = 0; i < batchSize; i++) {
          input.add(event("t" + t + "-b" + b + "-" + i));
        }
        mine.add(log().appendAll(session, input));
      }
      return mine;
    });

    Map<Long, String> idBySeq = new HashMap<>();
    for (List<List<Event>> thread : returned) {
      for (List<Event> batch : thread) {
        long first = batch.get(0).seq();
        assertThat(seqs(batch)).as("seqs of batch %s..", batch.get(0).id())
            .containsExactlyElementsOf(range(first, first + batchSize - 1));
        batch.forEach(event -> idBySeq.put(event.seq(), event.id()));
      }
    }
    int total = threads * batches * batchSize;
    List<Event> read = readAll(log(), session);
    assertThat(seqs(read)).containsExactlyElementsOf(range(1, total));
    read.forEach(event -> assertThat(event.id()).as("id read at seq %d", event.seq())
        .isEqualTo(idBySeq.get(event.seq())));
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("Concurrent appends to different sessions are independent: each session gets its own 1..N")
  void appendsToDifferentSessionsAreIndependent() {
    int threads = 8;
    int perThread = 300;
    List<String> sessions = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      sessions.add(id("s"));
    }

    Race.run(threads, BOUND, t -> {
      for (int i = 0; i < perThread; i++) {
        log().append(sessions.get(t), event("e-" + i));
        // every thread also writes to its neighbour, so sessions really share writers
        log().append(sessions.get((t + 1) % threads), event("n-" + t + "-" + i));
      }
      return null;
    });

    for (String session : sessions) {
      assertThat(seqs(readAll(log(), session))).as("seqs of %s", session)
          .containsExactlyElementsOf(range(1, 2L * perThread));
      assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(2L * perThread);
    }
  }

  @Test
  @Tag("guarantee-5")
  @DisplayName("Racing appends that expect the same seq: exactly one wins, the others get a conflict with the real"
      + " actual seq")
  void expectedSeqRacesHaveExactlyOneWinner() {
    String session = id("s");
    int threads = 16;
    int rounds = 25;

    for (int round = 0; round < rounds; round++) {
      long expected = round;
      List<Object> outcomes = Race.run(threads, BOUND, t -> {
        try {
          return log().append(session, event("r" + expected + "-t" + t), expected);
        } catch (SeqConflictException conflict) {
          return conflict;
        }
      });

      List<Event> winners = outcomes.stream().filter(Event.class::isInstance).map(Event.class::cast)
          .collect(Collectors.toList());
      assertThat(winners).as("winners of round %d (expected seq %d)", round, expected).hasSize(1);
      assertThat(winners.get(0).seq()).isEqualTo(expected + 1);
      outcomes.stream().filter(SeqConflictException.class::isInstance).map(SeqConflictException.class::cast)
          .forEach(conflict -> {
            assertThat(conflict.expectedSeq()).isEqualTo(expected);
            assertThat(conflict.actualSeq()).as("actual seq reported to a loser expecting %d", expected)
                .isEqualTo(expected + 1);
          });
    }
    assertThat(seqs(readAll(log(), session))).as("seqs read back from %s", session)
        .containsExactlyElementsOf(range(1, rounds));
  }

  @Test
  @Tag("guarantee-5")
  @DisplayName("Writers retrying with the actual seq from each conflict build one gapless log with no lost event")
  void retryingOnConflictsBuildsAGaplessLog() {
    String session = id("s");
    int threads = 8;
    int perThread = 60;

    List<Integer> conflicts = Race.run(threads, BOUND, t -> {
      int seen = 0;
      long expected = 0;
      for (int i = 0; i < perThread; i++) {
        NewEvent next = event("t" + t + "-" + i);
        while (true) {
          try {
            expected = log().append(session, next, expected).seq();
            break;
          } catch (SeqConflictException conflict) {
            assertThat(conflict.actualSeq()).as("actual seq after expecting %d", conflict.expectedSeq())
                .isGreaterThan(conflict.expectedSeq());
            expected = conflict.actualSeq();
            seen++;
          }
        }
      }
      return seen;
    });

    int total = threads * perThread;
    List<Event> read = readAll(log(), session);
    assertThat(seqs(read)).containsExactlyElementsOf(range(1, total));
    assertThat(read.stream().map(Event::id).distinct().count()).isEqualTo(total);
    assertThat(conflicts.stream().mapToInt(Integer::intValue).sum())
        .as("conflicts seen: every writer but the first starts by expecting an empty log")
        .isGreaterThanOrEqualTo(threads - 1);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Concurrent replays of one event store it once and all return the same stored event")
  void concurrentReplaysOfOneEventStoreItOnce() {
    String session = id("s");
    NewEvent shared = event("shared");

    List<Event> returned = Race.run(16, BOUND, t -> log().append(session, shared));

    assertThat(returned).as("events returned to 16 racing replays").allSatisfy(event -> {
      assertThat(event.seq()).as("seq of %s", event.id()).isEqualTo(1);
      assertThat(event).isEqualTo(returned.get(0));
    });
    assertThat(readAll(log(), session)).as("events read back from %s", session).containsExactly(returned.get(0));
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Concurrent replays of one batch store it once and all return the same stored events")
  void concurrentReplaysOfOneBatchStoreItOnce() {
    String session = id("s");
    List<NewEvent> batch = List.of(event("a"), event("b"), event("c"), event("d"));

    List<List<Event>> returned = Race.run(16, BOUND, t -> log().appendAll(session, batch));

    assertThat(returned).allSatisfy(result -> assertThat(result).isEqualTo(returned.get(0)));
    assertThat(seqs(returned.get(0))).as("seqs returned").containsExactly(1L, 2L, 3L, 4L);
    assertThat(log().lastSeq(session)).as("lastSeq of %s", session).isEqualTo(4);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Concurrent upserts of one session leave one session, and concurrent first appends create it once")
  void concurrentUpsertsLeaveOneSession() {
    String saved = id("s");
    String appended = id("s");

    Race.run(16, BOUND, t -> store.sessions().save(SessionWrite.of(saved).withAgentId("agent")));
    Race.run(16, BOUND, t -> log().append(appended, event("first-" + t)));

    List<Session> sessions = store.sessions().list(SessionQuery.all()).items();
    assertThat(sessions).extracting(Session::id).containsExactlyInAnyOrder(saved, appended);
    assertThat(seqs(readAll(log(), appended))).as("seqs read back from %s", appended)
        .containsExactlyElementsOf(range(1, 16));
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Concurrent metadata merges into one session lose no key")
  void concurrentMetadataMergesLoseNoKey() {
    String session = id("s");
    store.sessions().save(SessionWrite.of(session));
    int threads = 16;

    Race.run(threads, BOUND, t -> {
      for (int i = 0; i < 5; i++) {
        store.sessions().save(SessionWrite.of(session).withMetadata("k" + t + "-" + i, "v"));
      }
      return null;
    });

    Set<String> keys = store.sessions().find(session).orElseThrow().metadata().keySet();
    Set<String> expected = new HashSet<>();
    for (int t = 0; t < threads; t++) {
      for (int i = 0; i < 5; i++) {
        expected.add("k" + t + "-" + i);
      }
    }
    assertThat(keys).as("metadata keys after concurrent merges").containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  @Tag("guarantee-1")
  @Tag("guarantee-6")
  @DisplayName("Reads during concurrent appends always see a gapless prefix of the log")
  void readsDuringAppendsSeeAGaplessPrefix() {
    String session = id("s");
    int writers = 6;
    int perWriter = 300;
    AtomicBoolean writing = new AtomicBoolean(true);

    List<Integer> observations = Race.run(writers + 2, BOUND, t -> {
      if (t < writers) {
        try {
          for (int i = 0; i < perWriter; i++) {
            if (i % 3 == 0) {
              log().appendAll(session, List.of(event("t" + t + "-" + i + "a"), event("t" + t + "-" + i + "b")));
            } else {
              log().append(session, event("t" + t + "-" + i));
            }
          }
        } finally {
          if (t == 0) {
            writing.set(false);
          }
        }
        return 0;
      }
      int reads = 0;
      long lastSeen = 0;
      do {
        long latest = log().lastSeq(session);
        List<Event> page = log().read(session, EventQuery.all()).items();
        List<Long> seqs = seqs(page);
        assertThat(seqs).as("seqs seen by a concurrent reader").containsExactlyElementsOf(range(1, seqs.size()));
        assertThat((long) seqs.size()).as("events read right after lastSeq returned %d", latest)
            .isGreaterThanOrEqualTo(latest)
            .isGreaterThanOrEqualTo(lastSeen);
        lastSeen = seqs.size();
        reads++;
      } while (writing.get());
      return reads;
    });

    assertThat(observations.subList(writers, writers + 2)).allSatisfy(reads -> assertThat(reads).isPositive());
  }
}
