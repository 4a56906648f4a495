package dev.sessionstore.cassandra.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import java.time.Duration;
import java.util.List;

/**
 * One cluster per test JVM, started on first use and stopped when the JVM exits (the fixture's shutdown hook), with
 * driver sessions the tests share: starting a node costs ~15 s of two CPUs, a driver session about a second, so tests
 * take namespaces (or keyspaces) of their own on this cluster instead of nodes of their own. One node, or as many as
 * the system property {@value #NODES} says (the {@code cassandra-cluster} Maven profile sets 3).
 */
public final class SharedCluster {

  /** The system property naming the cluster's size. */
  public static final String NODES = "session-store.cassandra.nodes";

  private static CassandraCluster cluster;
  private static CqlSession first;
  private static CqlSession second;

  private SharedCluster() {
  }

  /** The running cluster. */
  public static synchronized CassandraCluster cluster() {
    if (cluster == null) {
      cluster = CassandraCluster.start(Integer.getInteger(NODES, 1));
    }
    return cluster;
  }

  /** The replication factor for keyspaces of the tests: every node holds every session. */
  public static int replicationFactor() {
    return cluster().size();
  }

  /** A driver session on {@link #cluster()}, shared by the tests' stores. */
  public static synchronized CqlSession session() {
    if (first == null) {
      first = open();
    }
    return first;
  }

  /** A second, independent driver session on {@link #cluster()}: what another process would have. */
  public static synchronized CqlSession peerSession() {
    if (second == null) {
      second = open();
    }
    return second;
  }

  private static CqlSession open() {
    return CqlSession.builder().addContactPoints(cluster().contactPoints()).withLocalDatacenter("datacenter1")
        .build();
  }

  /** How long each node took to start, for reports. */
  public static List<Duration> startTimes() {
    return cluster().startTimes();
  }
}
