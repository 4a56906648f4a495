package dev.sessionstore.springai.alibaba;

import dev.sessionstore.graph.GraphBackend;

/** {@link SessionStoreCheckpointSaver} on a SQLite file. */
class SqliteCheckpointSaverTest extends CheckpointSaverContract {

  SqliteCheckpointSaverTest() {
    super(GraphBackend.SQLITE);
  }
}
