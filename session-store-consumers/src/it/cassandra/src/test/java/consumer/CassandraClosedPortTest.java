package consumer;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionstore.SessionStoreException;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.cassandra.CassandraSessionStore;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * session-store-cassandra as a user's project resolves it: a cluster that cannot be reached is the documented
 * retryable {@link StoreFailureException}, not the driver's exception. No node runs here: the port is one just closed
 * on 127.0.0.1. (This check does not see a Jackson mismatch: with the driver's jackson-core 2.13.5 under
 * jackson-databind 2.19.2 it passes, while every connection to a real node fails; {@code CassandraRoundTripTest}
 * connects to one.)
 */
class CassandraClosedPortTest {

  @Test
  void unreachableClusterIsTheDocumentedStoreFailure() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    CassandraSessionStore.Builder builder = CassandraSessionStore.builder()
        .contactPoints(List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), closedPort)), "datacenter1")
        .keyspace("consumer_project");

    SessionStoreException failure = assertThrows(SessionStoreException.class, builder::build);
    StoreFailureException storeFailure = assertInstanceOf(StoreFailureException.class, failure);
    assertTrue(storeFailure.isRetryable(), "an unreachable cluster is retryable");
    assertTrue(storeFailure.getMessage().contains(String.valueOf(closedPort)), storeFailure.getMessage());
  }
}
