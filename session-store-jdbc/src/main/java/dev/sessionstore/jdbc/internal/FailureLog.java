package dev.sessionstore.jdbc.internal;

import dev.sessionstore.SessionStoreException;
import java.sql.SQLException;
import java.util.Arrays;
import org.slf4j.Logger;

/**
 * How the store's background work (listener, notifier, sweeper) warns of a failure: a database failure (a connection
 * killed under the store, a database restarting, a refusal) is expected in operation and is told on one line, the
 * failure's type and message and those of its first cause, with the stack trace at debug; anything else (a bug, an
 * {@link Error}) is warned with its stack trace.
 */
final class FailureLog {

  private FailureLog() {
  }

  /**
   * Logs {@code format} with {@code arguments} at warn: for a database failure followed by {@code ": "} and
   * {@link #oneLine} of it, with the stack trace at debug; else with {@code failure}'s stack trace.
   */
  static void warn(Logger log, Throwable failure, String format, Object... arguments) {
    if (isDatabaseFailure(failure)) {
      Object[] withSummary = Arrays.copyOf(arguments, arguments.length + 1);
      withSummary[arguments.length] = oneLine(failure);
      log.warn(format + ": {}", withSummary);
      log.debug("session-store: the stack trace of that failure", failure);
    } else {
      Object[] withFailure = Arrays.copyOf(arguments, arguments.length + 1);
      withFailure[arguments.length] = failure;
      log.warn(format, withFailure);
    }
  }

  /** Whether {@code failure} is the database's or the driver's, or the store's translation of one. */
  static boolean isDatabaseFailure(Throwable failure) {
    return failure instanceof SQLException || failure instanceof SessionStoreException;
  }

  /**
   * {@code Type: message}, then {@code (caused by Type: message)} of the first cause whose message differs, all on
   * one line.
   */
  static String oneLine(Throwable failure) {
    StringBuilder line = new StringBuilder(describe(failure));
    for (Throwable cause = failure.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
      if (cause.getMessage() != null && !cause.getMessage().equals(failure.getMessage())) {
        line.append(" (caused by ").append(describe(cause)).append(')');
        break;
      }
    }
    return line.toString().replace('\n', ' ').replace('\r', ' ');
  }

  private static String describe(Throwable failure) {
    return failure.getClass().getSimpleName() + ": " + failure.getMessage();
  }
}
