package dev.sessionstore.graph;

import dev.sessionstore.InvalidArgumentException;
import java.util.Objects;
import java.util.Optional;

/**
 * One checkpoint of a graph thread, as a runtime hands it to its saver: its id (unique within the thread), the node
 * that produced it, the node to run next, and the state. Immutable.
 *
 * @param id         the checkpoint id; also the id of its event in the thread's log
 * @param nodeId     the node that produced the checkpoint, or empty
 * @param nextNodeId the node the graph runs next from this checkpoint, or empty
 * @param state      the state, as the runtime's serializer wrote it
 */
public record GraphCheckpoint(String id, Optional<String> nodeId, Optional<String> nextNodeId, CheckpointState state) {

  /**
   * Checks the members.
   *
   * @throws InvalidArgumentException naming {@code checkpoint.id} if the id is null or blank (the store checks the
   *                                  rest of the event-id rules when the checkpoint is put)
   * @throws NullPointerException     if another member is null
   */
  public GraphCheckpoint {
    if (id == null || id.isBlank()) {
      throw new InvalidArgumentException("checkpoint.id", id == null ? "must not be null" : "must not be blank");
    }
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(nextNodeId, "nextNodeId");
    Objects.requireNonNull(state, "state");
  }
}
