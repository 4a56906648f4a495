package dev.sessionstore.graph;

import dev.sessionstore.SeqConflictException;
import java.util.Objects;

/**
 * A put built on a checkpoint that is no longer its thread's latest: another writer (an instance resuming from the
 * same checkpoint, a retried request) put one meanwhile. Nothing was stored. The writer should read the thread's
 * latest checkpoint and resume from it, or give up; retrying the same put fails the same way. Also a
 * {@link SeqConflictException} on the thread's session, with the seqs.
 */
public class CheckpointConflictException extends SeqConflictException {

  private final ThreadHead expected;
  private final ThreadHead actual;

  /**
   * The put on thread {@code threadId} expected {@code expected} to be its latest checkpoint; it is {@code actual}.
   */
  public CheckpointConflictException(String threadId, ThreadHead expected, ThreadHead actual) {
    super(threadId, expected.seq(), actual.seq());
    this.expected = Objects.requireNonNull(expected, "expected");
    this.actual = Objects.requireNonNull(actual, "actual");
  }

  /** The thread the put was for. */
  public String threadId() {
    return sessionId();
  }

  /** The checkpoint the put was built on. */
  public ThreadHead expected() {
    return expected;
  }

  /** The thread's latest checkpoint when the put failed. */
  public ThreadHead actual() {
    return actual;
  }

  /** Names the thread, the checkpoint the put was built on and the thread's latest. */
  @Override
  public String getMessage() {
    return "graph thread " + threadId() + ": the put was built on " + expected.describe()
        + " but the thread's latest is " + actual.describe()
        + "; another writer put a checkpoint meanwhile: resume from the latest checkpoint";
  }
}
