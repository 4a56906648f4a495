package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import java.util.Map;

/**
 * How long do a resuming agent's two reads take on a long Cassandra session, against the raw CQL twin
 * ({@link RawCql}) reading the same rows: the last {@value #TAIL} events, and the revival read (the latest summary
 * plus the events after it). One session of {@link Scale#forkedSession()} events and a summary of all but the last
 * {@value #TAIL}. Needs a Cassandra: {@link CassandraNode}. Not in the harness's default set;
 * {@code --only CassandraReads}.
 */
final class CassandraReads implements Measure {

  static final int TAIL = 50;
  private static final String SESSION = "long";
  private static final double TARGET = 0.8;

  @Override
  public String name() {
    return "Cassandra tail and revival reads against the raw CQL twin";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    CassandraNode node = CassandraNode.get();
    String namespace = CassandraNode.namespace("reads");
    int events = bench.scale().forkedSession();
    try (SessionStore store = node.store(namespace)) {
      Events.fill(store, SESSION, events);
      store.summaries().put(SESSION, NewSummary.of(1, events - TAIL,
          Json.from(Map.of("text", "the conversation so far, condensed by the agent's summarizer"))));
      RawCql raw = new RawCql(node.session(), CassandraNode.KEYSPACE, namespace);
      EventQuery tail = EventQuery.all().last(TAIL);

      String tailName = "Cassandra: last " + TAIL + " of a " + Numbers.count(events) + "-event session";
      Sides tails = Interleave.pairs(bench.scale().warmup(100), bench.scale().calls(1_000),
          Trial.timed(i -> store.events().read(SESSION, tail)),
          Trial.timed(i -> raw.tail(SESSION, TAIL)));
      double tailRatio = tails.latencyRatio();
      results.add(new Row(tailName, Numbers.percentiles(tails.library()), Numbers.percentiles(tails.baseline()),
          Numbers.ratio(tailRatio), "≥ " + Numbers.round(TARGET) + "×", tailRatio >= TARGET));
      results.baseline(tailName, "one statement at QUORUM, the partition's event rows newest first with `LIMIT "
          + TAIL + "`, reversed in Java, payloads as stored text. Both sides read the same partition.");

      String revivalName = "Cassandra: revival read, same session";
      Sides revivals = Interleave.pairs(bench.scale().warmup(30), bench.scale().calls(300),
          Trial.timed(i -> store.summaries().revive(SESSION)),
          Trial.timed(i -> raw.revive(SESSION)));
      double revivalRatio = revivals.latencyRatio();
      results.add(new Row(revivalName, Numbers.percentiles(revivals.library()),
          Numbers.percentiles(revivals.baseline()), Numbers.ratio(revivalRatio), "≥ " + Numbers.round(TARGET) + "×",
          revivalRatio >= TARGET));
      results.baseline(revivalName, "two statements at QUORUM: the latest summary row (`LIMIT 1`, newest first), "
          + "then the event rows after its seq. The library reads the latest summary with the partition's header and "
          + "the events after it with the head in every row, so that a write between its statements makes it read "
          + "again (one consistent view).");
    }
  }
}
