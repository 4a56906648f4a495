package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Backends of the writers' pool terminated every 200 ms, alternately while they commit and while they run any
 * statement of a batch, as 8 writers append 20-event batches to 4 sessions and retry failed batches with the same
 * ids, while 2 readers read the sessions whole (guarantees 1, 3, 4 and 17 of docs/guarantees.md). The writers'
 * connections delay each commit by 20 ms in the server, so that terminations land inside commits. The PostgreSQL is
 * this class's own.
 */
class TerminatedBackendsTest {

  private static final Duration RUN = Duration.ofSeconds(20);
  private static final Duration KILL_EVERY = Duration.ofMillis(200);
  /**
   * Faults the run must inject; on a loaded machine it goes on past {@link #RUN}, up to three times it, to get them.
   */
  private static final int MIN_FAULTS = (int) (RUN.toMillis() / KILL_EVERY.toMillis() / 2);
  private static final int WRITERS = 8;
  private static final int SESSIONS = 4;
  private static final int BATCH = 20;
  private static final String WRITERS_APPLICATION = "reliability-writers";
  /** Either append function of the schema, as a pattern of the statement text that calls it. */
  private static final String APPEND_CALL = "%session_store_append_%(%";

  @RegisterExtension
  static final OwnedPostgres postgres = OwnedPostgres.perTestClass();

  @Test
  @DisplayName("Batches whose backends are terminated mid-statement and mid-commit are stored once and whole, never"
      + " seen partly, with gapless seqs and every reported outcome true")
  void terminatedBackendsLoseNothing() throws Exception {
    String schema = Database.uniqueSchema("terminated");
    try (OpenStores stores = new OpenStores(postgres, schema)) {
      SessionStore reader = stores.store("readers", 4, StoreTuning.defaults());
      SessionStore store = stores.store(stores.pool("writers", WRITERS + 2, config -> {
        config.addDataSourceProperty("ApplicationName", WRITERS_APPLICATION);
        config.setConnectionInitSql("SET synchronous_commit = on; SET commit_delay = 20000; SET commit_siblings = 0");
      }), StoreTuning.defaults());
      Ledger ledger = new Ledger();
      Running running = new Running();
      List<BatchWriter> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        writers.add(new BatchWriter(store, reader, session(w % SESSIONS), "w" + w, BATCH, ledger, running));
      }
      ExecutorService threads = Executors.newCachedThreadPool();
      List<Future<?>> work = new ArrayList<>();
      writers.forEach(writer -> work.add(threads.submit(writer)));
      AtomicLong reads = new AtomicLong();
      List<String> partial = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int r = 0; r < 2; r++) {
        work.add(threads.submit(() -> readWhole(reader, running, reads, partial)));
      }

      int midCommit = 0;
      int midStatement = 0;
      long start = System.nanoTime();
      long end = start + RUN.toNanos();
      long latest = start + 3 * RUN.toNanos();
      for (int tick = 0; System.nanoTime() < end
          || (midCommit + midStatement < MIN_FAULTS && System.nanoTime() < latest); tick++) {
        long tickEnd = System.nanoTime() + KILL_EVERY.toNanos();
        boolean commit = tick % 2 == 0;
        boolean terminated = false;
        while (!terminated && System.nanoTime() < tickEnd) {
          terminated = commit ? terminateMidCommit() : terminateMidStatement();
        }
        if (terminated) {
          midCommit += commit ? 1 : 0;
          midStatement += commit ? 0 : 1;
          Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(tickEnd - System.nanoTime())));
        }
      }
      long faultSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
      running.stop();
      for (Future<?> future : work) {
        future.get(2, TimeUnit.MINUTES);
      }
      threads.shutdown();

      Ledger.Verdict verdict = ledger.verify(reader);
      long batches = writers.stream().mapToLong(BatchWriter::batches).sum();
      System.out.printf("TerminatedBackendsTest: %d s, %d backends terminated (%d during COMMIT, %d during other"
              + " statements); %d batches of %d acknowledged, %d retried after a reported failure, %d after an"
              + " unknown outcome; %d events acknowledged, %d found, %d lost; %d whole-session reads saw %d partial"
              + " batches%n", faultSeconds, midCommit + midStatement, midCommit, midStatement, batches, BATCH,
          writers.stream().mapToLong(BatchWriter::reportedFailed).sum(),
          writers.stream().mapToLong(BatchWriter::reportedUnknown).sum(), verdict.acknowledgedIds(), verdict.found(),
          verdict.lost(), reads.get(), partial.size());

      assertThat(partial).as("partial batches seen by readers").isEmpty();
      assertThat(verdict.found()).as("every stored event was acknowledged").isEqualTo(verdict.acknowledgedIds());
      assertThat(verdict.acknowledgedIds()).isEqualTo(batches * BATCH);
      assertThat((long) (midCommit + midStatement)).as("faults injected")
          .isGreaterThanOrEqualTo(MIN_FAULTS);
    }
  }

  private static String session(int index) {
    return "terminated-" + index;
  }

  /**
   * A backend committing: a transaction's {@code COMMIT}, or an append's auto-committed call (the schema's
   * {@code append_fresh} or {@code append_events}), which commits before it returns (with {@code commit_delay}, most of
   * its time).
   */
  private static boolean terminateMidCommit() throws SQLException {
    return postgres.terminateOne(WRITERS_APPLICATION, "COMMIT")
        || postgres.terminateOne(WRITERS_APPLICATION, APPEND_CALL);
  }

  /**
   * Terminates one writer backend running a statement of a batch (not a transaction's commit, nor a notification); an
   * append's one auto-committed call may be anywhere in its work.
   */
  private static boolean terminateMidStatement() throws SQLException {
    return postgres.terminateOne(WRITERS_APPLICATION, "INSERT%")
        || postgres.terminateOne(WRITERS_APPLICATION, "WITH%")
        || postgres.terminateOne(WRITERS_APPLICATION, "UPDATE%")
        || postgres.terminateOne(WRITERS_APPLICATION, "SELECT last_seq%")
        || postgres.terminateOne(WRITERS_APPLICATION, APPEND_CALL);
  }

  /** Reads each session whole, over and over, and records every batch it sees only partly. */
  private static void readWhole(SessionStore reader, Running running, AtomicLong reads, List<String> partial) {
    while (running.getAsBoolean()) {
      for (int s = 0; s < SESSIONS; s++) {
        String sessionId = session(s);
        List<Event> events = reader.events().read(sessionId, EventQuery.all()).items();
        reads.incrementAndGet();
        Map<String, Long> perBatch = events.stream().collect(Collectors.groupingBy(
            event -> event.id().substring(0, event.id().lastIndexOf('-') + 1), Collectors.counting()));
        perBatch.forEach((batch, count) -> {
          if (count != BATCH) {
            partial.add(sessionId + ": " + count + " of " + BATCH + " events of batch " + batch);
          }
        });
      }
    }
  }
}
