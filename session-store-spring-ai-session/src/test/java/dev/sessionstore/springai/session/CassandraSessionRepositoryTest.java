package dev.sessionstore.springai.session;

import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.CassandraSessionStore;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import java.util.UUID;
import org.springframework.ai.session.SessionRepository;

/**
 * {@link SessionStoreSessionRepository} on a real Cassandra node (the adapter's test fixture starts it as a separate
 * JVM on 127.0.0.1, once per test JVM; three nodes with the {@code cassandra-cluster} profile), each test in a namespace
 * of its own: the same contract as every other adapter, keyword search through Cassandra's SAI index included.
 */
class CassandraSessionRepositoryTest extends SessionRepositoryContract {

  private static final String KEYSPACE = "session_store_spring_ai_session";

  private SessionStore store;

  @Override
  protected SessionRepository newRepository() {
    store = CassandraSessionStore.builder().session(SharedCluster.session()).keyspace(KEYSPACE)
        .namespace(UUID.randomUUID().toString()).replicationFactor(SharedCluster.replicationFactor()).build();
    return SessionStoreSessionRepository.of(store);
  }

  @Override
  protected void cleanUp() {
    store.close();
  }
}
