package dev.sessionstore;

/**
 * An append stated the seq it expected the log to end at, and the log ended elsewhere; nothing was stored
 * (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#5">5</a>). Re-read from {@link #actualSeq()} and retry.
 */
public class SeqConflictException extends ConflictException {

  /** The session the append was for. */
  private final String sessionId;
  /** The last seq the caller expected. */
  private final long expectedSeq;
  /** The seq the log actually ends at. */
  private final long actualSeq;

  /**
   * The session {@code sessionId}'s log ends at {@code actualSeq}, not at the {@code expectedSeq} the append stated;
   * nothing was stored.
   */
  public SeqConflictException(String sessionId, long expectedSeq, long actualSeq) {
    super("session " + sessionId + ": expected last seq " + expectedSeq + " but the log ends at " + actualSeq);
    this.sessionId = sessionId;
    this.expectedSeq = expectedSeq;
    this.actualSeq = actualSeq;
  }

  /** The session the append was for. */
  public String sessionId() {
    return sessionId;
  }

  /** The last seq the caller expected. */
  public long expectedSeq() {
    return expectedSeq;
  }

  /** The last seq the log actually has (0 for an empty or unknown session). */
  public long actualSeq() {
    return actualSeq;
  }
}
