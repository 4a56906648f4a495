package dev.sessionstore;

/**
 * The backend failed (connection lost, database down, disk full, timeout) and the failed call wrote nothing: none of
 * its writes is stored, and the store's data is as it was before the call. The cause is kept, and the message says
 * which operation failed on which session and the cause's message with its SQLState where the backend has one.
 *
 * <p>{@link #isRetryable()} says whether the same call may succeed if made again later, unchanged: {@code true} for
 * transient failures (the connection was lost or could not be had, the database is restarting or failing over, a
 * statement or lock timeout struck, the database ran short of connections, memory or disk, a deadlock outlasted the
 * store's own retries); {@code false} when something must change first (missing privileges or tables, a database
 * that does not exist, a broken backend). It is the distinction {@link java.sql.SQLTransientException} and
 * {@link java.sql.SQLNonTransientException} draw in JDBC. The store has already retried what it safely can within
 * its own retry budget, so a caller retries at its own pace, typically with a backoff.
 *
 * <p>When the store cannot tell whether a write was applied (typically: the connection was lost while the database
 * committed it) it throws the subclass {@link OutcomeUnknownException} instead; a plain
 * {@code StoreFailureException} is never thrown for a write that may have been stored. Adapters resolve such doubts
 * themselves where they can, by running idempotent work again or reading what is stored, so callers rarely see one.
 * A read that throws this exception wrote nothing either (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#17">17</a>).
 */
public class StoreFailureException extends SessionStoreException {

  /** Whether the same call may succeed if tried again. */
  private final boolean retryable;

  /**
   * A failure that {@code retryable} says whether trying the same call again later may fix.
   *
   * @param message   the operation that failed and why, with the backend's error code where it has one
   * @param retryable whether the same call, made again later, may succeed
   * @param cause     the backend's error, or {@code null}
   */
  public StoreFailureException(String message, boolean retryable, Throwable cause) {
    super(message, cause);
    this.retryable = retryable;
  }

  /** A failure that trying the same call again is not expected to fix ({@link #isRetryable()} is false). */
  public StoreFailureException(String message, Throwable cause) {
    this(message, false, cause);
  }

  /**
   * Whether the same call, made again later with the same arguments, may succeed: the failure was transient. For
   * an {@link OutcomeUnknownException} always {@code true}, provided the retry uses the same ids.
   */
  public boolean isRetryable() {
    return retryable;
  }
}
