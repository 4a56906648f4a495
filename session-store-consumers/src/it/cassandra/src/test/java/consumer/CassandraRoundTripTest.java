package consumer;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.CassandraSessionStore;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * session-store-cassandra as a user's project resolves it, on a real Cassandra node: the store creates its keyspace
 * and tables, and the round trip reads back what it wrote (the driver's connection runs on the Jackson this tree
 * resolves, which failed with {@code NoSuchMethodError} when the driver's jackson-core 2.13.5 won). The node is the
 * one the consumers module's build started: its folder (system property {@code cassandra.node.folder}) gets the file
 * {@code contact-point} once it answers CQL, or {@code failed} with the reason.
 */
class CassandraRoundTripTest {

  private static final Duration NODE_WAIT = Duration.ofMinutes(4);

  @Test
  void createAppendReadBackOnARealNode() throws Exception {
    InetSocketAddress node = awaitNode(Path.of(System.getProperty("cassandra.node.folder")));
    try (SessionStore store = CassandraSessionStore.builder().contactPoints(List.of(node), "datacenter1")
        .keyspace("consumer_project").replicationFactor(1).build()) {
      RoundTrip.check(store);
    }
  }

  private static InetSocketAddress awaitNode(Path folder) throws Exception {
    long deadline = System.nanoTime() + NODE_WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(folder.resolve("failed"))) {
        fail("the build's Cassandra node did not start: " + Files.readString(folder.resolve("failed")));
      }
      Path contactPoint = folder.resolve("contact-point");
      if (Files.exists(contactPoint)) {
        String hostAndPort = Files.readString(contactPoint, StandardCharsets.UTF_8).strip();
        int colon = hostAndPort.lastIndexOf(':');
        assertTrue(colon > 0, "host:port in " + contactPoint + ": " + hostAndPort);
        return new InetSocketAddress(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
      }
      Thread.sleep(500);
    }
    return fail("no Cassandra node in " + folder + " within " + NODE_WAIT);
  }
}
