package dev.sessionstore.springai.session.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.springai.internal.MetadataValues;
import dev.sessionstore.springai.internal.SpringAiMessageCodec;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.session.SessionEvent;

/**
 * A {@link SessionEvent} as one event of the log, and back. The event id is the session event's id, the agent id its
 * branch, the timestamp its timestamp (kept to the microsecond, as the store keeps every time); the type and the
 * {@code message} member of the payload are what the Spring AI bridge's {@link SpringAiMessageCodec} writes for the
 * message, so the same codec serves the {@code ChatMemoryRepository} and this repository. The payload:
 * <pre>{@code
 * {"message": {...the codec's payload...},
 *  "metadata": {"synthetic": {"t": "boolean", "v": true}},   // the session event's metadata, typed, keys sorted
 *  "archived": true}                                          // only for an event appended already archived
 * }</pre>
 * Equal session events give equal payload text, so appending one again is a replay the store recognises.
 */
public final class SessionEventCodec {

  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
  private static final SpringAiMessageCodec MESSAGES = new SpringAiMessageCodec();

  private SessionEventCodec() {
  }

  /** The event types of Spring AI messages: every event this repository reads back as a session event. */
  public static Set<String> eventTypes() {
    return MESSAGES.eventTypes();
  }

  /** The event type of messages of {@code type}. */
  public static String eventType(MessageType type) {
    return SpringAiMessageCodec.EVENT_TYPES.get(type);
  }

  /** {@code event} as an event to append. */
  public static NewEvent encode(SessionEvent event) {
    ObjectNode payload = NODES.objectNode();
    payload.set("message", MESSAGES.payload(event.getMessage()).tree());
    ObjectNode metadata = payload.putObject("metadata");
    new TreeMap<>(event.getMetadata()).forEach((key, value) -> metadata.set(key, MetadataValues.write(value)));
    if (event.isArchived()) {
      payload.put("archived", true);
    }
    return new NewEvent(event.getId(), MESSAGES.eventType(event.getMessage()), null, event.getBranch(), null,
        Json.from(payload), event.getTimestamp());
  }

  /** The session event {@code stored} holds, archived if {@code archived} or if it was appended archived. */
  public static SessionEvent decode(Event stored, boolean archived) {
    JsonNode payload = stored.payload().tree();
    Message message = MESSAGES.decode(stored.type(), payload.path("message"));
    Map<String, Object> metadata = new HashMap<>();
    payload.path("metadata").properties()
        .forEach(member -> metadata.put(member.getKey(), MetadataValues.read(member.getValue())));
    return SessionEvent.builder()
        .id(stored.id())
        .sessionId(stored.sessionId())
        .timestamp(stored.timestamp())
        .message(message)
        .metadata(metadata)
        .branch(stored.agentId())
        .archived(archived || payload.path("archived").asBoolean(false))
        .build();
  }
}
