package dev.sessionstore;

/**
 * An append stated the seq it expected the log to end at, and the log ended elsewhere; nothing was stored
 * (guarantee 5 of docs/guarantees.md). Re-read from {@link #actualSeq()} and retry.
 */
public class SeqConflictException extends ConflictException {

  private final String sessionId;
  private final long expectedSeq;
  private final long actualSeq;

  public SeqConflictException(String sessionId, long expectedSeq, long actualSeq) {
    super("session " + sessionId + ": expected last seq " + expectedSeq + " but the log ends at " + actualSeq);
    this.sessionId = sessionId;
    this.expectedSeq = expectedSeq;
    this.actualSeq = actualSeq;
  }

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
