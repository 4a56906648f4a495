package dev.sessionstore.cassandra.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import java.time.Duration;

/**
 * One single-node cluster per test JVM, started on first use and stopped when the JVM exits (the fixture's shutdown
 * hook), with driver sessions the tests share: starting a node costs ~15 s of two CPUs, a driver session about a
 * second, so tests take namespaces (or keyspaces) of their own on this node instead of nodes of their own.
 */
public final class SharedCluster {

  private static CassandraCluster cluster;
  private static CqlSession first;
  private static CqlSession second;

  private SharedCluster() {
  }

  /** The running single-node cluster. */
  public static synchronized CassandraCluster single() {
    if (cluster == null) {
      cluster = CassandraCluster.start(1);
    }
    return cluster;
  }

  /** A driver session on {@link #single()}, shared by the tests' stores. */
  public static synchronized CqlSession session() {
    if (first == null) {
      first = open();
    }
    return first;
  }

  /** A second, independent driver session on {@link #single()}: what another process would have. */
  public static synchronized CqlSession peerSession() {
    if (second == null) {
      second = open();
    }
    return second;
  }

  private static CqlSession open() {
    return CqlSession.builder().addContactPoints(single().contactPoints()).withLocalDatacenter("datacenter1")
        .build();
  }

  /** How long the node took to start, for reports. */
  public static Duration startTime() {
    return single().startTimes().get(0);
  }
}
