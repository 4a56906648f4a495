package dev.sessionstore.cassandra.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import org.junit.jupiter.api.Test;

/** The fixture starts a real node that answers CQL, and stops exactly the process it started. */
class ClusterSmokeTest {

  @Test
  void aSingleNodeAnswersCqlAndItsProcessIsGoneAfterClose() {
    long pid;
    try (CassandraCluster cluster = CassandraCluster.start(1)) {
      pid = cluster.pid(1);
      assertThat(pid).isPositive();
      try (CqlSession session = CqlSession.builder().addContactPoints(cluster.contactPoints())
          .withLocalDatacenter("datacenter1").build()) {
        String version = session.execute("SELECT release_version FROM system.local").one().getString(0);
        assertThat(version).isEqualTo(System.getProperty("cassandra.version"));
      }
      System.out.println("node start times: " + cluster.startTimes());
    }
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(java.util.Optional.of(true));
  }
}
