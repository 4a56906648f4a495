package dev.sessionstore.springai.alibaba;

import dev.sessionstore.graph.GraphBackend;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@link SessionStoreCheckpointSaver} on Cassandra (a namespace of its own per test), in the {@code cassandra-cluster}
 * profile only: it starts a cluster ({@link GraphBackend#CASSANDRA}).
 */
@EnabledIfSystemProperty(named = GraphBackend.CASSANDRA_PROPERTY, matches = "true",
    disabledReason = "starts a Cassandra cluster: run with -P cassandra-cluster")
class CassandraCheckpointSaverTest extends CheckpointSaverContract {

  CassandraCheckpointSaverTest() {
    super(GraphBackend.CASSANDRA);
  }
}
