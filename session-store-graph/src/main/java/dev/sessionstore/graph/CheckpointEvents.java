package dev.sessionstore.graph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import java.util.Base64;
import java.util.Optional;

/**
 * The mapping of a checkpoint to an event and back. The event's id is the checkpoint id, its type
 * {@value #TYPE}, its payload {@code {"nodeId": …, "nextNodeId": …, "state": {…}}} for a JSON state or
 * {@code {…, "stateBase64": "…"}} for a binary one (node members left out when empty). Every checkpoint event is
 * covered by a summary of its own ({@link #chapter}), so each checkpoint is one chapter of the log and the store's
 * retention of events per session keeps the latest N checkpoints.
 */
final class CheckpointEvents {

  /** The type of a checkpoint event. */
  static final String TYPE = "graph.checkpoint";

  private static final String NODE = "nodeId";
  private static final String NEXT_NODE = "nextNodeId";
  private static final String STATE = "state";
  private static final String STATE_BASE64 = "stateBase64";

  private CheckpointEvents() {
  }

  /** The event that stores {@code checkpoint}. */
  static NewEvent event(GraphCheckpoint checkpoint) {
    ObjectNode payload = JsonNodeFactory.instance.objectNode();
    checkpoint.nodeId().ifPresent(node -> payload.put(NODE, node));
    checkpoint.nextNodeId().ifPresent(node -> payload.put(NEXT_NODE, node));
    if (checkpoint.state() instanceof CheckpointState.Document document) {
      payload.set(STATE, document.document().tree());
    } else {
      byte[] bytes = ((CheckpointState.Bytes) checkpoint.state()).bytes();
      payload.put(STATE_BASE64, Base64.getEncoder().encodeToString(bytes));
    }
    return NewEvent.of(TYPE, Json.from(payload)).withId(checkpoint.id());
  }

  /** The summary that makes the events {@code fromSeq..toSeq} one chapter, named after the checkpoint at its end. */
  static NewSummary chapter(long fromSeq, long toSeq, String checkpointId) {
    ObjectNode content = JsonNodeFactory.instance.objectNode().put("checkpointId", checkpointId);
    return NewSummary.of(fromSeq, toSeq, Json.from(content));
  }

  /**
   * The checkpoint {@code event} stores.
   *
   * @throws UndecodableCheckpointException naming the thread and the event's id if it is not a checkpoint event
   */
  static StoredCheckpoint checkpoint(Event event) {
    if (!TYPE.equals(event.type())) {
      throw undecodable(event, "its event has type " + event.type() + ", not " + TYPE, null);
    }
    JsonNode payload = event.payload().tree();
    CheckpointState state;
    if (payload.path(STATE_BASE64).isTextual()) {
      try {
        state = CheckpointState.bytes(Base64.getDecoder().decode(payload.get(STATE_BASE64).textValue()));
      } catch (IllegalArgumentException e) {
        throw undecodable(event, "its " + STATE_BASE64 + " is not base64", e);
      }
    } else if (payload.has(STATE)) {
      state = CheckpointState.json(Json.from(payload.get(STATE)));
    } else {
      throw undecodable(event, "its payload has neither " + STATE + " nor " + STATE_BASE64, null);
    }
    GraphCheckpoint checkpoint = new GraphCheckpoint(event.id(), text(event, payload, NODE),
        text(event, payload, NEXT_NODE), state);
    return new StoredCheckpoint(event.sessionId(), event.seq(), checkpoint, event.timestamp());
  }

  private static Optional<String> text(Event event, JsonNode payload, String member) {
    JsonNode node = payload.get(member);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isTextual()) {
      throw undecodable(event, "its " + member + " is not a string", null);
    }
    return Optional.of(node.textValue());
  }

  private static UndecodableCheckpointException undecodable(Event event, String problem, Throwable cause) {
    return new UndecodableCheckpointException(event.sessionId(), event.id(), problem, cause);
  }
}
