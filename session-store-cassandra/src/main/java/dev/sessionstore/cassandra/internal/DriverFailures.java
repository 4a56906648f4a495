package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.NodeUnavailableException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import dev.sessionstore.StoreFailureException;
import java.util.List;

/**
 * What a driver failure means for a write (guarantee 17 of docs/guarantees.md): whether the write may have been
 * applied (its outcome is unknown until a serial read settles it) or certainly was not, and the store failure a
 * caller gets.
 */
final class DriverFailures {

  private DriverFailures() {
  }

  /**
   * Whether a write that failed with {@code failure} may still have been applied. Only failures that certainly kept
   * the write from being applied say no: a coordinator that refused it up front (unavailable replicas, overloaded,
   * bootstrapping, an invalid statement), or a request the driver never sent (no node, no free or open connection,
   * throttled); when every node of the query plan failed, only if each node's failure is such. Anything else (a
   * coordinator or client timeout, a conditional write whose commit is unknown, a connection closed or a heartbeat
   * lost after the request was sent, a server error) may have been applied: found so by the reliability module's
   * node-kill test, where a connection closed by a killed coordinator had applied the batch.
   */
  static boolean outcomeUnknown(Throwable failure) {
    if (failure instanceof NoNodeAvailableException) {
      return false;
    }
    if (failure instanceof AllNodesFailedException all) {
      return all.getAllErrors().values().stream().flatMap(List::stream).anyMatch(DriverFailures::outcomeUnknown);
    }
    return !(failure instanceof UnavailableException || failure instanceof OverloadedException
        || failure instanceof BootstrappingException || failure instanceof QueryValidationException
        || failure instanceof NodeUnavailableException || failure instanceof BusyConnectionException
        || failure instanceof ConnectionInitException || failure instanceof RequestThrottlingException);
  }

  /** Whether {@code failure} comes from the driver or the cluster (not from the store's own rules). */
  static boolean isDriverFailure(RuntimeException failure) {
    return failure.getClass().getName().startsWith("com.datastax.oss.driver.");
  }

  /** The store failure for a read or a write that certainly wrote nothing. */
  static StoreFailureException failed(String what, RuntimeException failure) {
    boolean retryable = !(failure instanceof QueryValidationException);
    return new StoreFailureException(what + " failed: " + failure.getMessage(), retryable, failure);
  }
}
