package dev.sessionstore;

/**
 * An event id was reused with different content: either the session already stores another event under that id,
 * or one batch carries two different events with that id. Nothing of the batch was stored (the duplicate rule of
 * guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#3">3</a>).
 *
 * <p>Re-sending an event with the same id and equal content is not an error: it returns the stored event.
 */
public class DuplicateEventException extends ConflictException {

  /** The session the append was for. */
  private final String sessionId;
  /** The reused event id. */
  private final String eventId;

  /**
   * The session {@code sessionId} already holds, or the batch carries twice, the id {@code eventId} with different
   * content.
   */
  public DuplicateEventException(String sessionId, String eventId) {
    super("session " + sessionId + ": event id " + eventId + " is already used by an event with different content");
    this.sessionId = sessionId;
    this.eventId = eventId;
  }

  /** The session the append was for. */
  public String sessionId() {
    return sessionId;
  }

  /** The reused event id. */
  public String eventId() {
    return eventId;
  }
}
