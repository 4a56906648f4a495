package dev.sessionstore.springai.alibaba;

import dev.sessionstore.graph.GraphBackend;

/** {@link SessionStoreCheckpointSaver} on the in-memory store. */
class InMemoryCheckpointSaverTest extends CheckpointSaverContract {

  InMemoryCheckpointSaverTest() {
    super(GraphBackend.MEMORY);
  }
}
