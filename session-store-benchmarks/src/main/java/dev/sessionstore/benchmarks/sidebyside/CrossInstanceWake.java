package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.postgresql.PGConnection;

/**
 * How soon does a reader waiting on one store instance wake when another instance appends to its session? Each call
 * starts a waiting read for the events after the last one, lets it settle ({@value #SETTLE_MILLIS} ms), appends
 * through the other instance and measures from the start of the append to the return of the read. A read that times
 * out empty is a miss, counted at the timeout.
 */
final class CrossInstanceWake implements Measure {

  static final String NAME = "waiting read woken from another store instance";
  static final long SETTLE_MILLIS = 3;
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final String SESSION = "waited";
  private static final String CHANNEL = "side_by_side_wake";
  private static final double TARGET_P99_MILLIS = 7.4;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    ExecutorService readers = Executors.newSingleThreadExecutor();
    try (PgSchema library = bench.schemaWithTables("wake");
        PgSchema twin = bench.schemaWithTables("wake_raw");
        SessionStore waiting = library.openStore();
        SessionStore writing = library.openStore();
        Connection listening = twin.pool().getConnection()) {
      RawLog raw = new RawLog(twin, twin.pool());
      try (Statement listen = listening.createStatement()) {
        listen.execute("LISTEN " + CHANNEL);
      }
      PGConnection notifications = listening.unwrap(PGConnection.class);
      AtomicInteger libraryMisses = new AtomicInteger();
      AtomicInteger baselineMisses = new AtomicInteger();
      int warmup = bench.scale().warmup(30);
      int calls = bench.scale().calls(600);
      Sides sides = Interleave.pairs(warmup, calls,
          i -> wake(readers, libraryMisses,
              () -> !waiting.events().await(SESSION, EventQuery.all().after(i), TIMEOUT).items().isEmpty(),
              () -> writing.events().append(SESSION, Events.reply(i))),
          i -> wake(readers, baselineMisses, () -> {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (raw.after(SESSION, i).isEmpty()) {
              long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
              if (left <= 0) {
                return false;
              }
              notifications.getNotifications((int) left);
            }
            return true;
          }, () -> raw.appendAndNotify(SESSION, Events.reply(i), CHANNEL)));
      int total = warmup + calls;
      results.add(new Row(NAME, cell(sides.library(), libraryMisses.get(), total),
          cell(sides.baseline(), baselineMisses.get(), total), Numbers.ratio(sides.latencyRatio()),
          "0 missed, p99 ≤ " + Numbers.round(TARGET_P99_MILLIS) + " ms",
          libraryMisses.get() == 0 && sides.library().p99() <= TARGET_P99_MILLIS));
      results.baseline(NAME, "a connection held for `LISTEN`, blocked in pgjdbc's `getNotifications(timeout)`, "
          + "reading the events after its cursor when a notification arrives (and once before waiting); the "
          + "writer appends with the single-event statement and `pg_notify` in one transaction. The library's "
          + "reader and writer are two store instances, each with its own pool; a read that times out empty "
          + "counts as missed.");
    } finally {
      readers.shutdownNow();
    }
  }

  /**
   * Starts {@code read} on the reader thread, lets it settle, runs {@code append} and returns the nanoseconds from
   * the start of the append to the return of the read; a read that found nothing counts as a miss.
   */
  private static long wake(ExecutorService readers, AtomicInteger misses, Read read, Write append)
      throws Exception {
    CountDownLatch reading = new CountDownLatch(1);
    Future<Long> woken = readers.submit(() -> {
      reading.countDown();
      boolean found = read.found();
      long end = System.nanoTime();
      if (!found) {
        misses.incrementAndGet();
      }
      return end;
    });
    reading.await();
    Thread.sleep(SETTLE_MILLIS);
    long start = System.nanoTime();
    append.run();
    return woken.get() - start;
  }

  private static String cell(Samples samples, int misses, int total) {
    return Numbers.percentiles(samples) + " · " + misses + " missed of " + Numbers.count(total);
  }

  /** The append that should wake the read. */
  @FunctionalInterface
  private interface Write {
    void run() throws Exception;
  }

  /** A waiting read: whether it returned events. */
  @FunctionalInterface
  private interface Read {
    boolean found() throws Exception;
  }
}
