package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionStore;
import java.util.Map;

/**
 * How long do the two reads of a resuming agent take on a long session: the last {@value #TAIL} events, and the
 * revival read (the latest summary plus the events after it)? Both sides read the same rows: one session of
 * {@link Scale#longSession()} events, loaded server-side, and a summary of all but the last {@value #TAIL}.
 */
final class LongSessionReads implements Measure {

  static final int TAIL = 50;
  private static final String SESSION = "long";
  private static final double TAIL_P99_MILLIS = 2;
  private static final double REVIVAL_P99_MILLIS = 3;

  @Override
  public String name() {
    return "tail and revival reads of a long session";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    int events = bench.scale().longSession();
    String tailName = "last " + TAIL + " of a " + Numbers.count(events) + "-event session";
    String revivalName = "revival read (latest summary + events after it), same session";
    try (PgSchema schema = bench.schemaWithTables("reads");
        SessionStore store = schema.openStore()) {
      schema.fill(SESSION, events);
      store.summaries().put(SESSION, NewSummary.of(1, events - TAIL,
          Json.from(Map.of("text", "the conversation so far, condensed by the agent's summarizer"))));
      RawLog raw = new RawLog(schema, schema.pool());
      EventQuery tail = EventQuery.all().last(TAIL);

      Sides tails = Interleave.pairs(bench.scale().warmup(300), bench.scale().calls(2_000),
          Trial.timed(i -> store.events().read(SESSION, tail)),
          Trial.timed(i -> raw.tail(SESSION, TAIL)));
      results.add(new Row(tailName, Numbers.percentiles(tails.library()), Numbers.percentiles(tails.baseline()),
          Numbers.ratio(tails.latencyRatio()), "p99 ≤ " + Numbers.round(TAIL_P99_MILLIS) + " ms",
          tails.library().p99() <= TAIL_P99_MILLIS));
      results.baseline(tailName, "one statement, `ORDER BY seq DESC LIMIT " + TAIL + "` by the primary key, "
          + "reversed in Java; rows come back with the payload's stored text, as the library's do (it does not "
          + "check again what it wrote). Both sides read the same table.");

      Sides revivals = Interleave.pairs(bench.scale().warmup(30), bench.scale().calls(300),
          Trial.timed(i -> store.summaries().revive(SESSION)),
          Trial.timed(i -> raw.revive(SESSION)));
      results.add(new Row(revivalName, Numbers.percentiles(revivals.library()),
          Numbers.percentiles(revivals.baseline()), Numbers.ratio(revivals.latencyRatio()),
          "p99 ≤ " + Numbers.round(REVIVAL_P99_MILLIS) + " ms", revivals.library().p99() <= REVIVAL_P99_MILLIS));
      results.baseline(revivalName, "two statements in one read-only `REPEATABLE READ` transaction, so one "
          + "snapshot like the library's consistent view: the latest summary (`ORDER BY to_seq DESC LIMIT 1`), "
          + "then the events after its `to_seq`, bound as a value so that the planner knows how few follow. Both "
          + "sides read the same tables.");
    }
  }
}
