package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import dev.sessionstore.StoreFailureException;

/**
 * What a driver failure means for a write (guarantee 17 of docs/guarantees.md): whether the write may have been
 * applied (its outcome is unknown until a serial read settles it) or certainly was not, and the store failure a
 * caller gets.
 */
final class DriverFailures {

  private DriverFailures() {
  }

  /**
   * Whether a write that failed with {@code failure} may still have been applied: a coordinator that timed out
   * waiting for replicas, a conditional write whose commit is unknown, a request the client stopped waiting for, or a
   * connection lost after the request was sent. A node that refused the write up front (unavailable replicas, no
   * node to send it to, an invalid statement) wrote nothing.
   */
  static boolean outcomeUnknown(RuntimeException failure) {
    if (failure instanceof NoNodeAvailableException || failure instanceof UnavailableException
        || failure instanceof QueryValidationException) {
      return false;
    }
    return failure instanceof WriteTimeoutException || failure instanceof CASWriteUnknownException
        || failure instanceof DriverTimeoutException || failure instanceof AllNodesFailedException;
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
