package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How fast does the Cassandra store append, against the same conditional batch written by hand ({@link RawCql}) on
 * the same node and tables: one event per call, 100 events per call, {@value #WRITERS} writers over
 * {@value #SESSIONS} sessions, and {@value #WRITERS} threads on one session, where the store commits what its
 * threads queued as one batch (group commit) and the twin's threads race each other's Paxos rounds (un-queued).
 * Needs a Cassandra: {@link CassandraNode}. Not in the harness's default set; {@code --only CassandraAppends}.
 */
final class CassandraAppends implements Measure {

  static final int WRITERS = 16;
  static final int SESSIONS = 1_000;
  private static final int BATCH = 100;
  private static final double TARGET = 0.8;
  private static final double GROUP_COMMIT_TARGET = 10;

  @Override
  public String name() {
    return "Cassandra appends against the raw CQL twin";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    CassandraNode node = CassandraNode.get();
    String libraryNs = CassandraNode.namespace("appends");
    String twinNs = CassandraNode.namespace("appends-raw");
    try (SessionStore store = node.store(libraryNs)) {
      RawCql raw = new RawCql(node.session(), CassandraNode.KEYSPACE, twinNs);
      singleAppend(bench, results, node, store, raw);
      batch(bench, results, store, raw);
      manySessions(bench, results, store, raw);
      oneSession(bench, results, store, raw);
    }
  }

  private static void singleAppend(Bench bench, Results results, CassandraNode node, SessionStore store,
      RawCql raw) throws Exception {
    String name = "Cassandra: single-event append";
    Sides sides = Interleave.pairs(bench.scale().warmup(100), bench.scale().calls(500),
        Trial.timed(Events::reply, event -> store.events().append("single", event)),
        Trial.timed(Events::reply, event -> raw.append("single", List.of(event))));
    double ratio = sides.latencyRatio();
    results.add(new Row(name, Numbers.percentiles(sides.library()), Numbers.percentiles(sides.baseline()),
        Numbers.ratio(ratio), "≥ " + Numbers.round(TARGET) + "×", ratio >= TARGET));
    results.baseline(name, "on " + node.description() + ": one read of the partition's `head` and `last_seq` at "
        + "QUORUM, then one logged batch on the partition, `IF head = <read>` at SERIAL, writing the new head, the "
        + "event row and its id row at QUORUM (" + RawCql.class.getSimpleName() + "). The library, the session's "
        + "last writer, reads nothing: it assumes the head its previous write left and that the event's id is new, "
        + "and makes both conditions of its batch (`IF head = <assumed>`, the id row `IF NOT EXISTS`: idempotent "
        + "replay); it writes the session record too.");
  }

  private static void batch(Bench bench, Results results, SessionStore store, RawCql raw) throws Exception {
    String name = "Cassandra: " + BATCH + "-event batch";
    Sides sides = Interleave.pairs(bench.scale().warmup(10), bench.scale().calls(100),
        Trial.timed(i -> Events.replies(i, BATCH), events -> store.events().appendAll("batch", events)),
        Trial.timed(i -> Events.replies(i, BATCH), events -> raw.append("batch", events)));
    double ratio = sides.throughputRatio(BATCH);
    results.add(new Row(name, Numbers.rate(sides.library().perSecond(BATCH), "events") + " · "
        + Numbers.percentiles(sides.library()), Numbers.rate(sides.baseline().perSecond(BATCH), "events") + " · "
        + Numbers.percentiles(sides.baseline()), Numbers.ratio(ratio), "≥ " + Numbers.round(TARGET) + "×",
        ratio >= TARGET));
    results.baseline(name, "the twin of the single append with " + BATCH + " event rows and " + BATCH
        + " id rows in the one conditional batch; the library reads the " + BATCH + " ids first.");
  }

  private static void manySessions(Bench bench, Results results, SessionStore store, RawCql raw)
      throws Exception {
    String name = "Cassandra: " + WRITERS + " writers over " + Numbers.count(SESSIONS) + " sessions";
    Sides sides = Interleave.phases(1, bench.scale().calls(3), phase(bench), WRITERS,
        Trial.timed(Events::reply, event -> store.events().append(anySession(), event)),
        Trial.timed(Events::reply, event -> raw.append(anySession(), List.of(event))));
    double ratio = sides.throughputRatio(1);
    results.add(new Row(name, WriterSweep.cell(sides.library()), WriterSweep.cell(sides.baseline()),
        Numbers.ratio(ratio), "≥ " + Numbers.round(TARGET) + "×", ratio >= TARGET && sides.library().errors() == 0));
    results.baseline(name, "the single-append twin from " + WRITERS + " threads, each call on a session drawn at "
        + "random among " + Numbers.count(SESSIONS) + ".");
  }

  private static void oneSession(Bench bench, Results results, SessionStore store, RawCql raw) throws Exception {
    String name = "Cassandra: " + WRITERS + " threads on one session (group commit)";
    AtomicLong libraryAppended = new AtomicLong();
    AtomicLong baselineAppended = new AtomicLong();
    Sides sides = Interleave.phases(1, bench.scale().calls(3), phase(bench), WRITERS,
        Trial.timed(Events::reply, event -> {
          store.events().append("hot", event);
          libraryAppended.incrementAndGet();
        }),
        Trial.timed(Events::reply, event -> {
          raw.append("hot", List.of(event));
          baselineAppended.incrementAndGet();
        }));
    boolean gapless = store.events().lastSeq("hot") == libraryAppended.get()
        && raw.lastSeq("hot") == baselineAppended.get();
    double ratio = sides.throughputRatio(1);
    results.add(new Row(name, WriterSweep.cell(sides.library()) + (gapless ? " · gapless" : " · NOT gapless"),
        WriterSweep.cell(sides.baseline()), Numbers.ratio(ratio),
        "≥ " + Numbers.round(GROUP_COMMIT_TARGET) + "× the un-queued twin",
        ratio >= GROUP_COMMIT_TARGET && gapless && sides.library().errors() == 0));
    results.baseline(name, "the single-append twin from " + WRITERS + " threads on one session, un-queued: every "
        + "call its own read and conditional batch, racing the others' Paxos rounds and retrying a lost race "
        + "after a jittered pause. Afterwards each side's `last_seq` must equal the appends that returned.");
  }

  private static Duration phase(Bench bench) {
    return bench.scale().phase().multipliedBy(3);
  }

  private static String anySession() {
    return "s" + ThreadLocalRandom.current().nextInt(SESSIONS);
  }
}
