package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import java.util.ArrayList;
import java.util.List;

/**
 * What do a single-event append and a 100-event atomic batch cost on the embedded default, SQLite, against the
 * raw-JDBC twin ({@link RawSqliteLog}) on a file of its own with the same tables and pool settings, when the
 * session holds 100 events and when it holds 100,000? And how does a single append's p50 move with the session's
 * length, from 10 to 100,000 events (a panel: appends per second at the p50, each side)? Each session is filled
 * alike on both sides before its calls ({@link SqliteFile#fill}); the calls run interleaved, one pair at a time.
 */
final class SqliteAppends implements Measure {

  private static final double TARGET = 0.8;
  private static final int[] LENGTHS = {10, 100, 1_000, 10_000, 100_000};
  private static final int SHORT = 100;
  private static final int LONG = 100_000;

  @Override
  public String name() {
    return "SQLite appends against session length";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    List<Integer> points = new ArrayList<>();
    List<Double> library = new ArrayList<>();
    List<Double> baseline = new ArrayList<>();
    try (SqliteFile libraryFile = SqliteFile.withTables("sqlite");
        SqliteFile twinFile = SqliteFile.withTables("sqlite_raw");
        SessionStore store = libraryFile.openStore()) {
      RawSqliteLog raw = new RawSqliteLog(twinFile.pool());
      for (int length : LENGTHS) {
        int scaled = bench.scale() == Scale.SMOKE ? Math.min(length, 1_000) : length;
        String session = "single-" + length;
        libraryFile.fill(session, scaled);
        twinFile.fill(session, scaled);
        Sides sides = Interleave.pairs(bench.scale().warmup(1_000), bench.scale().calls(2_000),
            Trial.timed(Events::reply, event -> store.events().append(session, event)),
            Trial.timed(Events::reply, event -> raw.appendAll(session, List.of(event))));
        points.add(length);
        library.add(1_000 / sides.library().p50());
        baseline.add(1_000 / sides.baseline().p50());
        if (length == SHORT || length == LONG) {
          addRow(results, "SQLite single-event append, session of " + Numbers.count(scaled) + " events", sides);
        }
      }
      for (int length : new int[] {SHORT, LONG}) {
        int scaled = bench.scale() == Scale.SMOKE ? Math.min(length, 1_000) : length;
        String session = "batches-" + length;
        libraryFile.fill(session, scaled);
        twinFile.fill(session, scaled);
        Sides sides = Interleave.pairs(bench.scale().warmup(50), bench.scale().calls(300),
            Trial.timed(i -> Events.replies(i, 100), batch -> store.events().appendAll(session, batch)),
            Trial.timed(i -> Events.replies(i, 100), batch -> raw.appendAll(session, batch)));
        addRow(results, "SQLite 100-event atomic batch, session of " + Numbers.count(scaled) + " events", sides);
      }
    }
    results.add(new Panel("SQLite: single appends against session length (appends/s at the p50)",
        "events in the session", "appends", points, library, baseline, false));
    results.baseline("SQLite single-event append and 100-event batch", "the same tables in a SQLite file of their "
        + "own, through a HikariCP pool of the same settings (WAL, synchronous=NORMAL, foreign keys, busy timeout, "
        + "set once per connection, as the library sets them once per physical connection): in one transaction "
        + "through JDBC's own transaction control (`setAutoCommit(false)`, `commit`), an upsert of the session row "
        + "that moves `last_seq` by the number of events and returns it, then the events' inserts after the old "
        + "head (one prepared insert, a JDBC batch for 100), then their rows of the FTS5 search index, the words as "
        + "the library computes them (one prepared insert by the event's key, a JDBC batch for 100). Atomic and "
        + "gapless like the library; no idempotent replay, no expected-seq check, no wake-up of waiting reads, no payload validation. Both "
        + "sessions are filled alike by one recursive insert before their calls.");
  }

  private static void addRow(Results results, String name, Sides sides) {
    double ratio = sides.latencyRatio();
    results.add(new Row(name, Numbers.percentiles(sides.library()), Numbers.percentiles(sides.baseline()),
        Numbers.ratio(ratio), "≥ " + Numbers.round(TARGET) + "×", ratio >= TARGET));
  }
}
