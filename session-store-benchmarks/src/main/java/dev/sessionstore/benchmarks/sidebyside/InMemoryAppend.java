package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import dev.sessionstore.benchmarks.StoreKind;

/**
 * How fast does the in-memory store append, against a {@code ConcurrentHashMap} of per-session logs
 * ({@link MapLog})? One writer; each call times a block of {@value #BLOCK} appends (a single append is too short
 * for the clock) and counts as that block's mean. Each side moves to a new session every
 * {@value #EVENTS_PER_SESSION} events and deletes the previous one, outside the measurement, so memory stays flat.
 */
final class InMemoryAppend implements Measure {

  static final String NAME = "in-memory single-event append";
  static final int BLOCK = 100;
  static final int EVENTS_PER_SESSION = 10_000;
  private static final double TARGET = 0.7;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    try (SessionStore store = StoreKind.inMemory()) {
      MapLog map = new MapLog();
      Sides sides = Interleave.pairs(bench.scale().warmup(20_000), bench.scale().calls(20_000),
          i -> block(i, (session, event) -> store.events().append(session, event), store.sessions()::delete),
          i -> block(i, map::append, map::delete));
      double ratio = sides.throughputRatio(1);
      results.add(new Row(NAME, cell(sides.library()), cell(sides.baseline()), Numbers.ratio(ratio),
          "≥ " + Numbers.round(TARGET) + "×", ratio >= TARGET));
      results.baseline(NAME, "`ConcurrentHashMap` of session id to an `ArrayList` of `Event`s and a `HashMap` "
          + "from event id to event: `computeIfAbsent`, then under the log's monitor the id looked up (a stored id "
          + "returns the stored event), the `Event` record built with the next seq and a clock timestamp, and "
          + "added to the list and the index. The work the contract asks of any store (gapless seq under a lock, "
          + "idempotency by id, the record built); no expected-seq check, no same-content check on replay, no "
          + "argument checks beyond the record's own, no wake-ups. Percentiles are of the mean append in blocks of "
          + BLOCK + ".");
    }
  }

  /** Appends block {@code i}; returns the mean nanoseconds of one append in it. */
  private static long block(int i, Append append, Delete delete) throws Exception {
    long first = (long) i * BLOCK;
    String session = "s-" + first / EVENTS_PER_SESSION;
    if (first % EVENTS_PER_SESSION == 0 && first > 0) {
      delete.run("s-" + (first / EVENTS_PER_SESSION - 1));
    }
    NewEvent[] events = new NewEvent[BLOCK];
    for (int k = 0; k < BLOCK; k++) {
      events[k] = Events.reply(first + k);
    }
    long start = System.nanoTime();
    for (NewEvent event : events) {
      append.run(session, event);
    }
    return (System.nanoTime() - start) / BLOCK;
  }

  private static String cell(Samples samples) {
    return Numbers.rate(samples.perSecond(1), "appends") + " · p50 " + Numbers.micros(samples.p50()) + " · p99 "
        + Numbers.micros(samples.p99());
  }

  /** One side's append. */
  @FunctionalInterface
  private interface Append {
    void run(String sessionId, NewEvent event) throws Exception;
  }

  /** One side's session deletion. */
  @FunctionalInterface
  private interface Delete {
    void run(String sessionId) throws Exception;
  }
}
