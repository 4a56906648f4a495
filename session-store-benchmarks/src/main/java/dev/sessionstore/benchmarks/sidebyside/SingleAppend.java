package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;

/**
 * How long does appending one event in its own commit take, against one auto-committed statement that moves the
 * head and inserts the event? One session per side, new event ids, the payload parsed once. The first measure of a
 * run, on a fresh JVM, so it warms up until the JIT has compiled both sides' paths: on a 2-core machine the
 * library's CPU per call (the calling thread's) met the twin's only after about 6,000 calls, while after 1,000 it
 * was still about 10 µs more (a ratio near 0.87 instead of 0.93).
 */
final class SingleAppend implements Measure {

  static final String NAME = "single-event append, own commit";
  private static final double TARGET = 0.9;
  private static final String SESSION = "conversation";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    try (PgSchema library = bench.schemaWithTables("append");
        PgSchema twin = bench.schemaWithTables("append_raw");
        SessionStore store = library.openStore()) {
      RawLog raw = new RawLog(twin, twin.pool());
      Sides sides = Interleave.pairs(bench.scale().warmup(5_000), bench.scale().calls(5_000),
          Trial.timed(Events::reply, event -> store.events().append(SESSION, event)),
          Trial.timed(Events::reply, event -> raw.append(SESSION, event)));
      double ratio = sides.latencyRatio();
      results.add(new Row(NAME, Numbers.percentiles(sides.library()), Numbers.percentiles(sides.baseline()),
          Numbers.ratio(ratio), "≥ " + Numbers.round(TARGET) + "×", ratio >= TARGET));
      results.baseline(NAME, "one auto-committed statement: an upsert of the session row that moves `last_seq` "
          + "by one (creating the session if unknown) and, in the same statement, the event's insert at the new "
          + "head. Gapless seqs under any number of writers and an atomic append, like the library; no idempotent "
          + "replay (a reused id fails with a unique violation), no expected-seq check, no wake-up of waiting "
          + "readers, no payload validation.");
    }
  }
}
