package dev.sessionstore.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.cluster.CassandraCluster;
import dev.sessionstore.cassandra.cluster.WaitsAcrossOutage;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The single node of a cluster this test owns (on 127.0.0.21, beside the shared one) killed with {@code kill -9}
 * while waits are pending, then started again (guarantee 17 of docs/guarantees.md): see {@link WaitsAcrossOutage}.
 * The driver session reconnects at most a second apart, so that the test waits for the node, not for the driver's
 * default backoff. The three-node variant (quorum lost) is the reliability module's {@code CassandraNodeFaultTest}.
 */
class CassandraWaitOutageTest {

  private static final Duration SHORT = Duration.ofSeconds(6);
  private static final Duration LONG = Duration.ofSeconds(240);

  @Test
  @DisplayName("Waits across the kill and restart of the only node: those timing out while it is down return as a"
      + " timeout, the others return the append and resolution made after the restart, none throws")
  void waitsOutliveTheNodesDeath() throws Exception {
    try (CassandraCluster cluster = CassandraCluster.start(1, 21);
         CqlSession session = CqlSession.builder().addContactPoints(cluster.contactPoints())
             .withLocalDatacenter("datacenter1")
             .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                 .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(200))
                 .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(1))
                 .build())
             .build();
         SessionStore store = CassandraSessionStore.builder().session(session).keyspace("wait_outage")
             .namespace("n" + UUID.randomUUID().toString().replace("-", "")).replicationFactor(1).build()) {
      long pid = cluster.pid(1);
      WaitsAcrossOutage.Figures figures = WaitsAcrossOutage.run(store, SHORT, LONG, () -> {
        cluster.kill(1);
        sleep(SHORT.plusSeconds(1));
      }, () -> cluster.restart(1));
      System.out.println("CassandraWaitOutageTest: node (pid " + pid + ") killed and restarted; " + figures);
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during the outage", e);
    }
  }
}
