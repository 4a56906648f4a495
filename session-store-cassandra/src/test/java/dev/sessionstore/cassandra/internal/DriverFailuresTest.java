package dev.sessionstore.cassandra.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which driver failures leave a write's outcome unknown (guarantee 17): a connection closed after the request was
 * sent is unknown (the node-kill test in the reliability module found such a batch applied), a coordinator that
 * refused the write or a request never sent is not.
 */
class DriverFailuresTest {

  private static final Node NODE_1 = node();
  private static final Node NODE_2 = node();

  private static Node node() {
    return (Node) Proxy.newProxyInstance(Node.class.getClassLoader(), new Class<?>[] {Node.class},
        (proxy, method, args) -> method.getName().equals("hashCode") ? System.identityHashCode(proxy)
            : method.getName().equals("equals") ? proxy == args[0] : null);
  }

  private static UnavailableException unavailable() {
    return new UnavailableException(NODE_1, DefaultConsistencyLevel.QUORUM, 2, 1);
  }

  @Test
  void aConnectionLostAfterSendingLeavesTheOutcomeUnknown() {
    assertThat(DriverFailures.outcomeUnknown(new ClosedConnectionException("Unexpected error on channel"))).isTrue();
    assertThat(DriverFailures.outcomeUnknown(new HeartbeatException(null, "lost", null))).isTrue();
    assertThat(DriverFailures.outcomeUnknown(new DriverTimeoutException("timed out"))).isTrue();
  }

  @Test
  void aRefusedOrUnsentWriteWroteNothing() {
    assertThat(DriverFailures.outcomeUnknown(unavailable())).isFalse();
    assertThat(DriverFailures.outcomeUnknown(NoNodeAvailableException.fromErrors(Map.of()))).isFalse();
  }

  @Test
  void whenEveryNodeFailedTheOutcomeIsUnknownIfAnyNodeMayHaveAppliedIt() {
    Map<Node, Throwable> refused = new LinkedHashMap<>();
    refused.put(NODE_1, unavailable());
    refused.put(NODE_2, unavailable());
    assertThat(DriverFailures.outcomeUnknown(AllNodesFailedException.fromErrors(refused))).isFalse();
    refused.put(NODE_2, new ClosedConnectionException("Unexpected error on channel"));
    assertThat(DriverFailures.outcomeUnknown(AllNodesFailedException.fromErrors(refused))).isTrue();
  }
}
