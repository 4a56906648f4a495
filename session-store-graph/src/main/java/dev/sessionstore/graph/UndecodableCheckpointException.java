package dev.sessionstore.graph;

import dev.sessionstore.SessionStoreException;

/**
 * A stored checkpoint could not be decoded: its event is not a checkpoint, its payload lacks a member, or the
 * runtime's serializer rejected its state (a class that changed or is missing, bytes from another serializer). Never
 * skipped: the read that met it fails, naming the thread and the checkpoint.
 */
public class UndecodableCheckpointException extends SessionStoreException {

  private final String threadId;
  private final String checkpointId;

  /** Checkpoint {@code checkpointId} of thread {@code threadId} could not be decoded: {@code problem}. */
  public UndecodableCheckpointException(String threadId, String checkpointId, String problem, Throwable cause) {
    super("graph thread " + threadId + ": checkpoint " + checkpointId + " cannot be decoded: " + problem, cause);
    this.threadId = threadId;
    this.checkpointId = checkpointId;
  }

  /** The thread whose checkpoint could not be decoded. */
  public String threadId() {
    return threadId;
  }

  /** The checkpoint that could not be decoded (its event id). */
  public String checkpointId() {
    return checkpointId;
  }
}
