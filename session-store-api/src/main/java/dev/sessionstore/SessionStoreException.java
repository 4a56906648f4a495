package dev.sessionstore;

/**
 * Root of every error a {@link SessionStore} raises. Unchecked: callers catch the subclass they can act on.
 *
 * <p>Whenever a store throws one of these for bad input or a conflict, nothing of the failed call was written
 * and the store keeps serving (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#15">15</a>).
 */
public abstract class SessionStoreException extends RuntimeException {

  /** A failure described by {@code message}, for the subclasses. */
  protected SessionStoreException(String message) {
    super(message);
  }

  /** A failure described by {@code message}, caused by {@code cause}, for the subclasses. */
  protected SessionStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
