package dev.sessionstore;

/**
 * The backend failed (connection lost, database down, disk full, timeout) and the failed call wrote nothing: none of
 * its writes is stored, and the store's data is as it was before the call. The cause is kept, and the message says
 * which operation failed on which session and the cause's message with its SQLState where the backend has one.
 *
 * <p>When the store cannot tell whether a write was applied (typically: the connection was lost while the database
 * committed it) it throws the subclass {@link OutcomeUnknownException} instead; a plain
 * {@code StoreFailureException} is never thrown for a write that may have been stored. Adapters resolve such doubts
 * themselves where they can, by running idempotent work again or reading what is stored, so callers rarely see one.
 * A read that throws this exception wrote nothing either (SPEC guarantee 17).
 */
public class StoreFailureException extends SessionStoreException {

  public StoreFailureException(String message, Throwable cause) {
    super(message, cause);
  }
}
