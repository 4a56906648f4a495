package dev.sessionstore;

/**
 * A write collided with existing state and stored nothing: a session name already taken, a fork target id already
 * in use, an expected last seq the log does not end at, an event id reused with other content. Subclasses carry what
 * the caller needs to retry.
 */
public class ConflictException extends SessionStoreException {

  /**
   * A conflict described by {@code message}; nothing was written. Not retryable as it is: the caller re-reads first.
   */
  public ConflictException(String message) {
    super(message);
  }
}
