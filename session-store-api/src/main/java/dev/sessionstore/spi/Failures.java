package dev.sessionstore.spi;

import dev.sessionstore.ConflictException;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NotFoundException;

/**
 * The failures every adapter raises for the same cause, worded once, so that a caller (and a log reader) sees the same
 * exception with the same message whichever store it runs on. An adapter builds these exceptions here rather than
 * with its own words; the conformance kit compares adapters' messages with these.
 */
public final class Failures {

  private Failures() {
  }

  /** A session an operation needs does not exist: {@code session not found: <id>}. */
  public static NotFoundException sessionNotFound(String sessionId) {
    return new NotFoundException("session", sessionId);
  }

  /** An event named by id is not in the session's log: {@code event not found: <id> of session <session>}. */
  public static NotFoundException eventNotFound(String sessionId, String eventId) {
    return new NotFoundException("event", eventId + " of session " + sessionId);
  }

  /** A fork point past the end of the log: {@code event not found: seq <seq> of session <session>}. */
  public static NotFoundException forkPointNotFound(String sessionId, long atSeq) {
    return new NotFoundException("event", "seq " + atSeq + " of session " + sessionId);
  }

  /** A tool call an operation needs does not exist: {@code tool call not found: <id> of session <session>}. */
  public static NotFoundException toolCallNotFound(String sessionId, String toolCallId) {
    return new NotFoundException("tool call", toolCallId + " of session " + sessionId);
  }

  /** A fork's target id is in use: {@code cannot fork into session <id>: it exists}. */
  public static ConflictException forkTargetExists(String newSessionId) {
    return new ConflictException("cannot fork into session " + newSessionId + ": it exists");
  }

  /** A session name another session holds: {@code session name <name> is taken by another session}. */
  public static ConflictException nameTaken(String name) {
    return new ConflictException("session name " + name + " is taken by another session");
  }

  /**
   * A summary whose {@code toSeq} is past the end of the log, naming {@code summary.toSeq}:
   * {@code <toSeq> is past the last seq <lastSeq> of session <session>}.
   */
  public static InvalidArgumentException summaryPastLastSeq(String sessionId, long toSeq, long lastSeq) {
    return new InvalidArgumentException("summary.toSeq",
        toSeq + " is past the last seq " + lastSeq + " of session " + sessionId);
  }
}
