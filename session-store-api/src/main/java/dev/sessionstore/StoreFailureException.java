package dev.sessionstore;

/**
 * The backend failed (connection lost, disk full, timeout). The cause is kept. The failed call is atomic as
 * documented for it: a failed batch or flush wrote nothing.
 */
public class StoreFailureException extends SessionStoreException {

  public StoreFailureException(String message, Throwable cause) {
    super(message, cause);
  }
}
