package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import dev.sessionstore.StoreFailureException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A build whose contact points no node answers fails as the builder documents; no node runs for this test. */
class CassandraUnreachableTest {

  @Test
  void noReachableContactPointIsARetryableStoreFailureNamingThePoints() throws IOException {
    InetSocketAddress closed = closedLoopbackPort();
    long start = System.nanoTime();

    Throwable thrown = catchThrowable(() -> CassandraSessionStore.builder()
        .contactPoints(List.of(closed), "datacenter1").build());

    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(thrown).isInstanceOfSatisfying(StoreFailureException.class, failure -> {
      assertThat(failure.isRetryable()).as("retryable").isTrue();
      assertThat(failure.getMessage()).contains(String.valueOf(closed.getPort())).contains("datacenter1");
      assertThat(failure.getCause()).isInstanceOf(AllNodesFailedException.class);
    });
    System.out.println("unreachable build failed after " + took.toMillis() + " ms: " + thrown.getMessage());
  }

  private static InetSocketAddress closedLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort());
    }
  }
}
