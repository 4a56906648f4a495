package dev.sessionstore.cassandra.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import org.junit.jupiter.api.Test;

/**
 * The fixture starts a real node that answers CQL, and stops exactly the process it started. Its node is on
 * 127.0.0.11, beside the cluster other tests of this JVM share on 127.0.0.1.
 */
class ClusterSmokeTest {

  @Test
  void aSingleNodeAnswersCqlAndItsProcessIsGoneAfterClose() {
    long pid;
    try (CassandraCluster cluster = CassandraCluster.start(1, 11)) {
      pid = cluster.pid(1);
      assertThat(pid).isPositive();
      try (CqlSession session = CqlSession.builder().addContactPoints(cluster.contactPoints())
          .withLocalDatacenter("datacenter1").build()) {
        var local = session.execute("SELECT release_version, rpc_address FROM system.local").one();
        assertThat(local.getString(0)).isEqualTo(System.getProperty("cassandra.version"));
        assertThat(local.getInetAddress(1).getHostAddress()).as("the node that answered").isEqualTo("127.0.0.11");
      }
      System.out.println("node start times: " + cluster.startTimes());
    }
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("process " + pid + " after close")
        .isNotEqualTo(java.util.Optional.of(true));
  }
}
