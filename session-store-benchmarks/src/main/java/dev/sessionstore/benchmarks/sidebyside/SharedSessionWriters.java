package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many single-event appends per second do {@value #WRITERS} writers store on one session, where every append
 * waits for the session's head, against the raw twin? Afterwards each side's log must hold exactly the appends
 * that returned, with seqs 1 to their count.
 */
final class SharedSessionWriters implements Measure {

  static final int WRITERS = 8;
  static final String NAME = "8 writers on one session";
  private static final String SESSION = "shared";
  private static final double TARGET = 0.8;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    try (PgSchema library = bench.schemaWithTables("shared");
        PgSchema twin = bench.schemaWithTables("shared_raw");
        SessionStore store = library.openStore()) {
      RawLog raw = new RawLog(twin, twin.pool());
      AtomicLong libraryAppended = new AtomicLong();
      AtomicLong baselineAppended = new AtomicLong();
      Sides sides = Interleave.phases(1, bench.scale().calls(3), bench.scale().phase(), WRITERS,
          Trial.timed(Events::reply, event -> {
            store.events().append(SESSION, event);
            libraryAppended.incrementAndGet();
          }),
          Trial.timed(Events::reply, event -> {
            raw.append(SESSION, event);
            baselineAppended.incrementAndGet();
          }));
      boolean libraryGapless = library.gapless(SESSION, libraryAppended.get());
      boolean baselineGapless = twin.gapless(SESSION, baselineAppended.get());
      double ratio = sides.throughputRatio(1);
      results.add(new Row(NAME, WriterSweep.cell(sides.library()) + gapless(libraryGapless),
          WriterSweep.cell(sides.baseline()) + gapless(baselineGapless), Numbers.ratio(ratio),
          "≥ " + Numbers.round(TARGET) + "×, gapless",
          ratio >= TARGET && libraryGapless && sides.library().errors() == 0));
      results.baseline(NAME, "the single-event twin of the first row from " + WRITERS + " threads on one session: "
          + "the upsert's row lock queues them on the session row until each commits, as the library's head lock "
          + "does. After the run each side's log is checked: as many rows as appends returned, seqs 1 to that "
          + "count, the session's `last_seq` at the last.");
    }
  }

  private static String gapless(boolean gapless) {
    return gapless ? " · gapless" : " · NOT gapless";
  }
}
