package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import dev.sessionstore.benchmarks.StoreKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Does an append cost the same for message 1,000,000 as for message 10? For each adapter against its raw twin,
 * one panel: single-event appends to a session already holding 10, 100, 1,000, 10,000, 100,000 and 1,000,000 events,
 * appends per second at the p50 of each side (a flat line is a cost that does not grow with the session). PostgreSQL
 * against {@link RawLog} on a schema of its own, SQLite against {@link RawSqliteLog} on a file of its own, the
 * in-memory store against {@link MapLog}. Each session is filled alike on both sides before its calls (PostgreSQL
 * and SQLite by one server-side insert, the in-memory sides by appends); the calls run interleaved, one pair at a
 * time (in-memory: a block of {@value #MEMORY_BLOCK} appends per call, whose mean counts, a single append being too
 * short for the clock). The appended ids are fresh: none of them is among the filled ones. Each adapter also gets a
 * row: its appends at the longest session against its twin's, with the target of its own append row.
 */
final class AppendCostByLength implements Measure {

  private static final int[] LENGTHS = {10, 100, 1_000, 10_000, 100_000, 1_000_000};
  private static final int SMOKE_LENGTH = 1_000;
  private static final int MEMORY_BLOCK = 10;
  /** Above every filled event's number: appended ids never replay a filled one. */
  private static final long FRESH = 100_000_000L;
  private static final String X_LABEL = "events in the session";

  @Override
  public String name() {
    return "single appends against session length, every adapter";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    postgres(bench, results);
    sqlite(bench, results);
    memory(bench, results);
    results.baseline("cost per append against session length", "per adapter, the raw twin of the rows above: "
        + "PostgreSQL's one auto-committed upsert-and-insert statement, SQLite's transaction of a `RETURNING` "
        + "upsert and an insert, the in-memory `ConcurrentHashMap` of per-session logs; each on a session filled "
        + "alike to the same length.");
  }

  private static void postgres(Bench bench, Results results) throws Exception {
    Curve curve = new Curve();
    try (PgSchema library = bench.schemaWithTables("cost");
        PgSchema twin = bench.schemaWithTables("cost_raw");
        SessionStore store = library.openStore()) {
      RawLog raw = new RawLog(twin, twin.pool());
      for (int length : LENGTHS) {
        String session = "length-" + length;
        library.fill(session, scaled(bench, length));
        twin.fill(session, scaled(bench, length));
        curve.add(length, scaled(bench, length), Interleave.pairs(bench.scale().warmup(100),
            bench.scale().calls(500),
            Trial.timed(i -> Events.reply(FRESH + i), event -> store.events().append(session, event)),
            Trial.timed(i -> Events.reply(FRESH + i), event -> raw.append(session, event))));
      }
    }
    curve.publish(results, "PostgreSQL", 0.9, false);
  }

  private static void sqlite(Bench bench, Results results) throws Exception {
    Curve curve = new Curve();
    try (SqliteFile libraryFile = SqliteFile.withTables("cost");
        SqliteFile twinFile = SqliteFile.withTables("cost_raw");
        SessionStore store = libraryFile.openStore()) {
      RawSqliteLog raw = new RawSqliteLog(twinFile.pool());
      for (int length : LENGTHS) {
        String session = "length-" + length;
        libraryFile.fill(session, scaled(bench, length));
        twinFile.fill(session, scaled(bench, length));
        curve.add(length, scaled(bench, length), Interleave.pairs(bench.scale().warmup(500),
            bench.scale().calls(1_000),
            Trial.timed(i -> Events.reply(FRESH + i), event -> store.events().append(session, event)),
            Trial.timed(i -> Events.reply(FRESH + i), event -> raw.appendAll(session, List.of(event)))));
      }
    }
    curve.publish(results, "SQLite", 0.8, false);
  }

  private static void memory(Bench bench, Results results) throws Exception {
    Curve curve = new Curve();
    try (SessionStore store = StoreKind.inMemory()) {
      for (int length : LENGTHS) {
        MapLog map = new MapLog();
        String session = "length-" + length;
        int scaled = scaled(bench, length);
        Events.fill(store, session, scaled);
        for (int i = 0; i < scaled; i++) {
          map.append(session, Events.turn(i));
        }
        curve.add(length, scaled, Interleave.pairs(bench.scale().warmup(2_000), bench.scale().calls(5_000),
            i -> block(i, event -> store.events().append(session, event)),
            i -> block(i, event -> map.append(session, event))));
        store.sessions().delete(session);
      }
    }
    curve.publish(results, "In-memory", 0.7, true);
  }

  /** Appends block {@code i} of fresh events; returns the mean nanoseconds of one append in it. */
  private static long block(int i, Trial.Use<NewEvent> append) throws Exception {
    NewEvent[] events = new NewEvent[MEMORY_BLOCK];
    for (int k = 0; k < MEMORY_BLOCK; k++) {
      events[k] = Events.reply(FRESH + (long) i * MEMORY_BLOCK + k);
    }
    long start = System.nanoTime();
    for (NewEvent event : events) {
      append.run(event);
    }
    return (System.nanoTime() - start) / MEMORY_BLOCK;
  }

  private static int scaled(Bench bench, int length) {
    return bench.scale() == Scale.SMOKE ? Math.min(length, SMOKE_LENGTH) : length;
  }

  /** The p50 throughput of each side at each length. */
  private static final class Curve {
    private final List<Integer> points = new ArrayList<>();
    private final List<Double> library = new ArrayList<>();
    private final List<Double> baseline = new ArrayList<>();
    private Sides longest;
    private int longestScaled;

    void add(int length, int scaled, Sides sides) {
      points.add(length);
      longestScaled = scaled;
      library.add(1_000 / sides.library().p50());
      baseline.add(1_000 / sides.baseline().p50());
      longest = sides;
    }

    /** The panel, and the row of the longest session against the twin, to meet {@code target}. */
    void publish(Results results, String adapter, double target, boolean inMicros) {
      results.add(new Panel(adapter + ": single appends against session length (appends/s at the p50)", X_LABEL,
          "appends", points, library, baseline, false));
      double ratio = longest.latencyRatio();
      results.add(new Row(adapter + " single-event append at " + Numbers.count(longestScaled)
          + " events in the session", cell(longest.library(), inMicros), cell(longest.baseline(), inMicros),
          Numbers.ratio(ratio), "≥ " + Numbers.round(target) + "×", ratio >= target));
    }

    private static String cell(Samples samples, boolean inMicros) {
      return inMicros ? "p50 " + Numbers.micros(samples.p50()) + " · p99 " + Numbers.micros(samples.p99())
          : Numbers.percentiles(samples);
    }
  }
}
