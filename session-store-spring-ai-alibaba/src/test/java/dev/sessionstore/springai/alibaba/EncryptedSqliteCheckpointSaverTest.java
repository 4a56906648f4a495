package dev.sessionstore.springai.alibaba;

import dev.sessionstore.graph.GraphBackend;

/** {@link SessionStoreCheckpointSaver} on an encrypting store over a SQLite file. */
class EncryptedSqliteCheckpointSaverTest extends CheckpointSaverContract {

  EncryptedSqliteCheckpointSaverTest() {
    super(GraphBackend.ENCRYPTED_SQLITE);
  }
}
