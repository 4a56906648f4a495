package dev.sessionstore.benchmarks.sidebyside;

import com.alibaba.cloud.ai.graph.StateGraph;
import com.alibaba.cloud.ai.graph.serializer.StateSerializer;
import dev.sessionstore.SessionStore;
import dev.sessionstore.springai.alibaba.SessionStoreCheckpointSaver;

/**
 * How long does a Spring AI Alibaba Graph step take on the library's saver ({@link SessionStoreCheckpointSaver} on a
 * PostgreSQL store) against Spring AI Alibaba's own {@code PostgresSaver} on the same database, at 10 / 1,000 /
 * 10,000 checkpoints in the thread, and with {@value GraphSteps#WRITERS} graph threads stepping at once
 * ({@link GraphSteps})? Both use the graph's default state serializer ({@link StateGraph#DEFAULT_JACKSON_SERIALIZER}).
 */
final class AlibabaGraphSteps implements Measure {

  static final String RUNTIME = "Spring AI Alibaba Graph 1.1.2.2";

  @Override
  public String name() {
    return RUNTIME + " checkpoint savers";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    StateSerializer serializer = StateGraph.DEFAULT_JACKSON_SERIALIZER;
    try (PgSchema library = bench.schemaWithTables("alibaba");
        PgSchema peer = bench.schema("alibaba_pg");
        SessionStore store = library.openStore();
        SessionStore restarted = library.openStore()) {
      GraphSaverSide ours = new AlibabaSaverSide(
          SessionStoreCheckpointSaver.builder(store).stateSerializer(serializer).build(),
          () -> SessionStoreCheckpointSaver.builder(restarted).stateSerializer(serializer).build(), serializer);
      GraphSaverSide theirs = new AlibabaSaverSide(
          new PooledAlibabaPostgresSaver(peer.pool(), serializer, true),
          () -> new PooledAlibabaPostgresSaver(peer.pool(), serializer, false), serializer);
      new GraphSteps(RUNTIME, "`PostgresSaver`").run(bench, results, ours, theirs, () -> {
        library.analyze();
        peer.analyze();
      }, "Spring AI Alibaba Graph "
          + "1.1.2.2's own `com.alibaba.cloud.ai.graph.checkpoint.savers.postgresql.PostgresSaver`, in a schema of "
          + "its own on the same database, its tables created by its own DDL. Its builder takes host/port/user/"
          + "password/database only and opens an unpooled connection per call; here it gets its connections from a "
          + "HikariCP pool of the library's settings through its `getConnection()` extension point, all else its "
          + "own. It extends `MemorySaver`: it loads a thread's checkpoints into memory once per instance and "
          + "answers `get` and `list` from memory (it reads the database only for a thread it holds nothing of); a `put` inserts one row (after an upsert of the thread row) in "
          + "one transaction, under one lock shared by all threads. Other instances' writes are not seen by an "
          + "instance that already loaded the thread. The library's saver reads the store on every `get` (one "
          + "event) and appends with a check of the thread's head (5 statements). Both schemas' tables are analyzed "
          + "after each fill.");
    }
  }
}
