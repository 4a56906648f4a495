package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How many single-event appends per second do 1, 2, 4, 8 and 16 writers store, each append to one of
 * {@value #SESSIONS} sessions drawn at random, against the raw twin's single-statement append? Each round runs a
 * timed phase of each side, one after the other; the 16-writer point is a row of the table, every point a point of
 * the chart.
 */
final class WriterSweep implements Measure {

  static final int SESSIONS = 1_000;
  static final String NAME = "16 writers over 1,000 sessions";
  private static final int[] WRITERS = {1, 2, 4, 8, 16};
  private static final int ROW_WRITERS = 16;
  private static final double TARGET = 0.8;

  @Override
  public String name() {
    return "throughput against writer count";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    List<Integer> points = new ArrayList<>();
    List<Double> libraryRates = new ArrayList<>();
    List<Double> baselineRates = new ArrayList<>();
    try (PgSchema library = bench.schemaWithTables("writers");
        PgSchema twin = bench.schemaWithTables("writers_raw");
        SessionStore store = library.openStore()) {
      RawLog raw = new RawLog(twin, twin.pool());
      for (int writers : WRITERS) {
        String prefix = "w" + writers + "-";
        Sides sides = Interleave.phases(1, bench.scale().calls(3), bench.scale().phase(), writers,
            Trial.timed(Events::reply, event -> store.events().append(anySession(prefix), event)),
            Trial.timed(Events::reply, event -> raw.append(anySession(prefix), event)));
        points.add(writers);
        libraryRates.add(sides.library().perSecond(1));
        baselineRates.add(sides.baseline().perSecond(1));
        if (writers == ROW_WRITERS) {
          double ratio = sides.throughputRatio(1);
          results.add(new Row(NAME, cell(sides.library()), cell(sides.baseline()), Numbers.ratio(ratio),
              "≥ " + Numbers.round(TARGET) + "×, 0 errors",
              ratio >= TARGET && sides.library().errors() == 0));
        }
      }
    }
    results.add(new Panel("Writers over 1,000 sessions, one event per append", "writers", "appends", points,
        libraryRates, baselineRates, false));
    results.baseline(NAME, "the single-event twin of the first row, from as many threads, each append to a session "
        + "drawn at random. Each side writes alone for its phase (one second per round in the full run), "
        + "the sides alternating in random order; throughput is appends over the phases' wall time.");
  }

  /** {@code 3.1k appends/s · p50 … · p99 … · 0 errors}. */
  static String cell(Samples samples) {
    String cell = Numbers.rate(samples.perSecond(1), "appends") + " · " + Numbers.percentiles(samples) + " · "
        + samples.errors() + " errors";
    return samples.firstError() == null ? cell : cell + " (first: " + samples.firstError() + ")";
  }

  private static String anySession(String prefix) {
    return prefix + ThreadLocalRandom.current().nextInt(SESSIONS);
  }
}
