package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;

/**
 * How long does appending one event in its own commit take, against one auto-committed statement that moves the
 * head and inserts the event? One session per side, new event ids; the library's timed call makes its payload from
 * the text ({@link Events#withPayloadFromText}: checked, search words read) as a caller does, the twin is handed the
 * text. The first measure of a
 * run, on a fresh JVM, and measured twice: over the first {@value #FIRST_CALLS} calls after a short warm-up of
 * {@value #FIRST_WARMUP} (what a short-lived process or a lightly used service sees, the JIT still compiling), then,
 * on a second session per side, over {@value #WARM_CALLS} calls once {@value #WARM_AFTER} calls have run. Each row
 * also gives the calling thread's CPU time and allocation per call of each side ({@link CallCost}).
 */
final class SingleAppend implements Measure {

  static final String NAME = "single-event append, own commit";
  static final int FIRST_WARMUP = 200;
  static final int FIRST_CALLS = 1_000;
  static final int WARM_AFTER = 5_000;
  static final int WARM_CALLS = 5_000;
  private static final double TARGET = 0.9;

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
      CallCost libraryCost = new CallCost();
      CallCost twinCost = new CallCost();
      int firstWarmup = bench.scale().warmup(FIRST_WARMUP);
      int firstCalls = bench.scale().calls(FIRST_CALLS);
      Sides first = Interleave.pairs(firstWarmup, firstCalls,
          libraryCost.timed(Events::reply, event -> store.events().append("first-calls", Events.withPayloadFromText(event))),
          twinCost.timed(Events::reply, event -> raw.append("first-calls", event)));
      add(results, first, "first calls", "first " + Numbers.count(firstCalls) + " calls after "
          + Numbers.count(firstWarmup), libraryCost, twinCost, firstCalls);
      int warmCalls = bench.scale().calls(WARM_CALLS);
      int warmAfter = bench.scale().warmup(WARM_AFTER);
      Sides warm = Interleave.pairs(Math.max(1, warmAfter - firstWarmup - firstCalls), warmCalls,
          libraryCost.timed(Events::reply, event -> store.events().append("warmed", Events.withPayloadFromText(event))),
          twinCost.timed(Events::reply, event -> raw.append("warmed", event)));
      add(results, warm, "warmed", Numbers.count(warmCalls) + " calls after " + Numbers.count(warmAfter),
          libraryCost, twinCost, warmCalls);
      results.baseline(NAME, "one auto-committed statement: an upsert of the session row that moves `last_seq` "
          + "by one (creating the session if unknown) and, in the same statement, the event's insert at the new "
          + "head. Gapless seqs under any number of writers and an atomic append, like the library; no idempotent "
          + "replay (a reused id fails with a unique violation), no expected-seq check, no wake-up of waiting "
          + "readers, no payload validation, no search words. It is handed the payload's text; the library's timed "
          + "call makes the payload from that text (`Json.of`: checked, words read) as a caller does.");
    }
  }

  private static void add(Results results, Sides sides, String phase, String warmup, CallCost library,
      CallCost twin, int calls) {
    double ratio = sides.latencyRatio();
    results.add(new Row(NAME + ", " + phase, Numbers.percentiles(sides.library()) + " · "
        + library.describe(calls), Numbers.percentiles(sides.baseline()) + " · " + twin.describe(calls),
        Numbers.ratio(ratio), "≥ " + Numbers.round(TARGET) + "×", ratio >= TARGET, warmup));
  }
}
