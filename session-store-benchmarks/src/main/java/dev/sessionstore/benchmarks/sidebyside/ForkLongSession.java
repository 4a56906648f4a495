package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import dev.sessionstore.benchmarks.StoreKind;

/**
 * How long does forking a session of {@link Scale#forkedSession()} events at its last event take, on PostgreSQL
 * against a bare {@code INSERT … SELECT} of the same rows, and in memory against copying a prefix of an
 * {@code ArrayList}? Each fork is deleted after its call, outside the measurement.
 */
final class ForkLongSession implements Measure {

  private static final String PARENT = "parent";
  private static final double TARGET_MILLIS = 10;

  @Override
  public String name() {
    return "fork of a long session";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    int events = bench.scale().forkedSession();
    String postgresName = "fork of a " + Numbers.count(events) + "-event session, PostgreSQL";
    try (PgSchema library = bench.schemaWithTables("fork");
        PgSchema twin = bench.schemaWithTables("fork_raw");
        SessionStore store = library.openStore()) {
      library.fill(PARENT, events);
      twin.fill(PARENT, events);
      RawLog raw = new RawLog(twin, twin.pool());
      Sides sides = forks(store, events, bench.scale().warmup(1), bench.scale().calls(4), raw::fork, raw::delete);
      add(results, postgresName, sides);
      results.baseline(postgresName, "one transaction: an `INSERT … SELECT` of the parent's session row and one of "
          + "its events up to the fork point, server-side. Consistent and atomic; it copies no summaries, runs, "
          + "tool calls or checkpoints (the parent has none here). Few calls: each copies the whole log.");
    }

    String memoryName = "fork of a " + Numbers.count(events) + "-event session, in-memory";
    try (SessionStore store = StoreKind.inMemory()) {
      MapLog map = new MapLog();
      Events.fill(store, PARENT, events);
      for (int i = 0; i < events; i++) {
        map.append(PARENT, Events.turn(i));
      }
      Sides sides = forks(store, events, bench.scale().warmup(5), bench.scale().calls(20), map::fork, map::delete);
      add(results, memoryName, sides);
      results.baseline(memoryName, "`new ArrayList<>(log.subList(0, atSeq))` and a `HashMap` id index of that "
          + "prefix, under the parent log's lock, put in the `ConcurrentHashMap` under the fork's id (see the "
          + "in-memory append row).");
    }
  }

  /**
   * Forks {@link #PARENT} at {@code events} with the library and with {@code copy}, interleaved; every fork is
   * deleted after its call, outside the measurement.
   */
  private static Sides forks(SessionStore store, int events, int warmup, int calls, Copy copy, Delete delete)
      throws Exception {
    return Interleave.pairs(warmup, calls,
        Trial.undone(i -> store.sessions().fork(PARENT, events), fork -> store.sessions().delete(fork.id())),
        Trial.undone(i -> {
          String fork = "fork-" + i;
          copy.fork(PARENT, events, fork);
          return fork;
        }, delete::run));
  }

  private static void add(Results results, String name, Sides sides) {
    results.add(new Row(name, Numbers.percentiles(sides.library()), Numbers.percentiles(sides.baseline()),
        Numbers.ratio(sides.latencyRatio()), "p50 ≤ " + Numbers.round(TARGET_MILLIS) + " ms, independent of length",
        sides.library().p50() <= TARGET_MILLIS));
  }

  /** A baseline's fork: copies the first {@code atSeq} events of {@code parentId} to a new session {@code forkId}. */
  @FunctionalInterface
  private interface Copy {
    void fork(String parentId, int atSeq, String forkId) throws Exception;
  }

  /** A baseline's session deletion. */
  @FunctionalInterface
  private interface Delete {
    void run(String sessionId) throws Exception;
  }
}
