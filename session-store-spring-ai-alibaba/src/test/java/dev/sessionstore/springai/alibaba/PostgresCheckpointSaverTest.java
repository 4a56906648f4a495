package dev.sessionstore.springai.alibaba;

import dev.sessionstore.graph.GraphBackend;

/** {@link SessionStoreCheckpointSaver} on PostgreSQL (a schema of its own per test). */
class PostgresCheckpointSaverTest extends CheckpointSaverContract {

  PostgresCheckpointSaverTest() {
    super(GraphBackend.POSTGRESQL);
  }
}
