package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import java.util.ArrayList;
import java.util.List;

/**
 * How many events per second does one writer store in atomic batches of 1, 10, 100 and 1,000 events, against one
 * auto-committed statement over arrays? A session per batch size and side; the library's timed call makes each
 * payload from its text ({@link Events#withPayloadFromText}) as a caller does, the twin is handed the texts. The
 * 100-event point is a row of the table, every point a point of the chart.
 */
final class BatchSweep implements Measure {

  static final String NAME = "100-event atomic batch";
  private static final int[] SIZES = {1, 10, 100, 1_000};
  private static final int ROW_SIZE = 100;
  private static final double TARGET_RATIO = 0.8;
  private static final double TARGET_RATE = 50_000;

  @Override
  public String name() {
    return "throughput against batch size";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    List<Integer> points = new ArrayList<>();
    List<Double> libraryRates = new ArrayList<>();
    List<Double> baselineRates = new ArrayList<>();
    try (PgSchema library = bench.schemaWithTables("batch");
        PgSchema twin = bench.schemaWithTables("batch_raw");
        SessionStore store = library.openStore()) {
      RawLog raw = new RawLog(twin, twin.pool());
      for (int size : SIZES) {
        String session = "batches-of-" + size;
        int calls = Math.min(400, Math.max(20, 10_000 / size));
        Sides sides = Interleave.pairs(bench.scale().warmup(calls / 5), bench.scale().calls(calls),
            Trial.timed(i -> Events.replies(i, size), batch -> store.events().appendAll(session,
                batch.stream().map(Events::withPayloadFromText).toList())),
            Trial.timed(i -> Events.replies(i, size), batch -> raw.appendAll(session, batch)));
        points.add(size);
        libraryRates.add(sides.library().perSecond(size));
        baselineRates.add(sides.baseline().perSecond(size));
        if (size == ROW_SIZE) {
          double ratio = sides.throughputRatio(size);
          double rate = sides.library().perSecond(size);
          results.add(new Row(NAME, cell(sides.library(), size), cell(sides.baseline(), size),
              Numbers.ratio(ratio), "≥ " + Numbers.round(TARGET_RATIO) + "× and ≥ "
              + Numbers.round(TARGET_RATE) + " events/s", ratio >= TARGET_RATIO && rate >= TARGET_RATE));
        }
      }
    }
    results.add(new Panel("One writer, atomic batches", "events per batch", "events", points, libraryRates,
        baselineRates, true));
    results.baseline(NAME, "one auto-committed statement: the session-row upsert moves `last_seq` by the batch "
        + "size and the events, sent as one array per column, are inserted after the old head with "
        + "`unnest … WITH ORDINALITY`. Atomic and gapless like the library; no replay, no expected-seq check, no "
        + "wake-up, no validation, no search words; it is handed each payload's text, while the library's timed call "
        + "makes each payload from its text (`Json.of`: checked, words read) as a caller does. The same pair runs at "
        + "every batch size of the chart.");
  }

  private static String cell(Samples samples, int size) {
    return Numbers.rate(samples.perSecond(size), "events") + " · " + Numbers.percentiles(samples);
  }
}
