package dev.sessionstore.graph;

import java.time.Instant;
import java.util.Objects;

/**
 * A checkpoint as its thread's log holds it. Immutable.
 *
 * @param threadId   the thread (the session id)
 * @param seq        the seq of the checkpoint's event: the thread's checkpoints are ordered by it, never by time
 * @param checkpoint the checkpoint
 * @param storedAt   when the store appended it
 */
public record StoredCheckpoint(String threadId, long seq, GraphCheckpoint checkpoint, Instant storedAt) {

  /** Checks the members. @throws NullPointerException if a member is null */
  public StoredCheckpoint {
    Objects.requireNonNull(threadId, "threadId");
    Objects.requireNonNull(checkpoint, "checkpoint");
    Objects.requireNonNull(storedAt, "storedAt");
  }

  /** This checkpoint as the parent of the next one a writer puts on top of it. */
  public ThreadHead head() {
    return new ThreadHead(seq, checkpoint.id());
  }
}
