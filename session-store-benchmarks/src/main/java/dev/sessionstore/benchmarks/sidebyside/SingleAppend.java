package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;

/**
 * How long does appending one event in its own commit take, against one auto-committed statement that moves the
 * head and inserts the event? One session per side, new event ids, the payload parsed once.
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
      Sides sides = Interleave.pairs(bench.scale().warmup(200), bench.scale().calls(1_000),
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
