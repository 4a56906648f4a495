package dev.sessionstore.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.WeakHashMap;
import org.junit.jupiter.api.BeforeAll;

/**
 * The conformance kit on a real Cassandra 5.0 cluster started by the fixture: one node in the normal build, three
 * with the {@code cassandra-cluster} profile, the replication factor the cluster's size:
 * every store gets a namespace of its own in one keyspace; a peer store is built on a second driver session, as
 * another process would, on its first's namespace.
 */
class CassandraConformanceTest extends SessionStoreConformance {

  private static final String KEYSPACE = "session_store_kit";

  /**
   * Room for a checkpoint of {@code Limits.MAX_CHECKPOINT_BYTES} (16 MiB) in one write; the fixture's nodes accept
   * mutations up to 32 MiB ({@code commitlog_segment_size: 64MiB}).
   */
  private static final long MAX_MUTATION_BYTES = 24L * 1024 * 1024;
  private static final Map<SessionStore, String> NAMESPACES = new WeakHashMap<>();

  @BeforeAll
  static void startNode() {
    System.out.println("conformance kit on " + SharedCluster.cluster().contactPoints() + ", replication factor "
        + SharedCluster.replicationFactor() + ", nodes started in " + SharedCluster.startTimes());
  }

  @Override
  protected SessionStore newStore(Clock clock) {
    String namespace = UUID.randomUUID().toString();
    SessionStore store = build(SharedCluster.session(), namespace, clock);
    synchronized (NAMESPACES) {
      NAMESPACES.put(store, namespace);
    }
    return store;
  }

  @Override
  protected SessionStore newPeerStore(SessionStore first, Clock clock) {
    String namespace;
    synchronized (NAMESPACES) {
      namespace = NAMESPACES.get(first);
    }
    return build(SharedCluster.peerSession(), namespace, clock);
  }

  /** A store on a namespace of its own that applies {@code policy} every {@code interval}. */
  @Override
  protected SessionStore newRetainingStore(Clock clock, RetentionPolicy policy, Duration interval) {
    return configure(SharedCluster.session(), UUID.randomUUID().toString(), clock).retention(policy, interval)
        .build();
  }

  private static SessionStore build(CqlSession session, String namespace, Clock clock) {
    return configure(session, namespace, clock).build();
  }

  private static CassandraSessionStore.Builder configure(CqlSession session, String namespace, Clock clock) {
    return CassandraSessionStore.builder().session(session).keyspace(KEYSPACE).namespace(namespace)
        .replicationFactor(SharedCluster.replicationFactor()).clock(clock).maxMutationBytes(MAX_MUTATION_BYTES)
        .modelCallAudit(true);
  }
}
