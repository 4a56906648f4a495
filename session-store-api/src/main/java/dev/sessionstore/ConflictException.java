package dev.sessionstore;

/**
 * A write collided with existing state and stored nothing: a session name already taken, a fork target id already
 * in use, a run id that belongs to another session. Subclasses carry what the caller needs to retry.
 */
public class ConflictException extends SessionStoreException {

  public ConflictException(String message) {
    super(message);
  }
}
