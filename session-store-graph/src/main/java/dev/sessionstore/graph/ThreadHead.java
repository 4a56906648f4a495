package dev.sessionstore.graph;

import java.util.Optional;

/**
 * The checkpoint a writer builds on: the one it resumed from or last put. A put names it, and fails unless it is
 * still the thread's latest checkpoint. Immutable.
 *
 * @param seq          the seq of that checkpoint's event; 0 for a thread with no checkpoint yet
 * @param checkpointId its id, or empty for a thread with no checkpoint yet
 */
public record ThreadHead(long seq, Optional<String> checkpointId) {

  /** The head of a thread with no checkpoint: a put on top of it requires the thread to be empty. */
  public static final ThreadHead EMPTY = new ThreadHead(0, Optional.empty());

  /** The head at the checkpoint {@code checkpointId}, stored at {@code seq}. */
  public ThreadHead(long seq, String checkpointId) {
    this(seq, Optional.of(checkpointId));
  }

  /**
   * Checks the members.
   *
   * @throws IllegalArgumentException if {@code seq} is negative, or 0 with an id, or positive without one
   */
  public ThreadHead {
    if (seq < 0 || (seq == 0) != checkpointId.isEmpty()) {
      throw new IllegalArgumentException("a head is seq 0 without a checkpoint id, or a positive seq with one; was "
          + seq + " " + checkpointId);
    }
  }

  /** {@code checkpoint <id> (seq <n>)}, or {@code no checkpoint} for {@link #EMPTY}. */
  String describe() {
    return checkpointId.map(id -> "checkpoint " + id + " (seq " + seq + ")").orElse("no checkpoint");
  }
}
