package dev.sessionstore.springai.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.chat.MessageCodec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.ai.chat.messages.AbstractMessage;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.ai.content.MediaContent;
import org.springframework.util.MimeType;

/**
 * Spring AI messages as events: the event type from the message type ({@code user_message},
 * {@code assistant_message}, {@code system_message}, {@code tool_response_message}) and a payload holding everything
 * the message carries:
 * <pre>{@code
 * {"text": "...",                                   // null when the message has none
 *  "metadata": {"key": {"t": "int", "v": 42}},       // typed values, see MetadataValues; messageType left out
 *  "media": [{"mimeType": "image/png", "id": null, "name": "...", "data": {"uri": "https://..."}}],
 *                                                    // or "data": {"bytes": base64}
 *  "toolCalls": [{"id": "...", "type": "function", "name": "...", "arguments": "{...}"}],
 *  "responses": [{"id": "...", "name": "...", "responseData": "..."}]}
 * }</pre>
 * Keys of the metadata are written sorted, so equal messages have equal payload text. The {@code messageType}
 * metadata entry every message holds is not written: the message constructors put it back. Media data other than a
 * URI string or bytes is written as its {@code toString()} and comes back as that string.
 */
public final class SpringAiMessageCodec implements MessageCodec<Message> {

  /** The event type of each message type. */
  public static final Map<MessageType, String> EVENT_TYPES = Map.of(
      MessageType.USER, "user_message",
      MessageType.ASSISTANT, "assistant_message",
      MessageType.SYSTEM, "system_message",
      MessageType.TOOL, "tool_response_message");

  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
  private static final Map<String, MessageType> MESSAGE_TYPES = new HashMap<>();

  static {
    EVENT_TYPES.forEach((type, eventType) -> MESSAGE_TYPES.put(eventType, type));
  }

  @Override
  public Set<String> eventTypes() {
    return MESSAGE_TYPES.keySet();
  }

  @Override
  public String eventType(Message message) {
    return EVENT_TYPES.get(message.getMessageType());
  }

  /** A system message: Spring AI's {@code MessageWindowChatMemory} keeps it while it evicts the rest. */
  @Override
  public boolean isPinned(Message message) {
    return message.getMessageType() == MessageType.SYSTEM;
  }

  @Override
  public Json payload(Message message) {
    ObjectNode payload = NODES.objectNode();
    payload.put("text", message.getText());
    ObjectNode metadata = payload.putObject("metadata");
    new TreeMap<>(message.getMetadata()).forEach((key, value) -> {
      if (!AbstractMessage.MESSAGE_TYPE.equals(key)) {
        metadata.set(key, MetadataValues.write(value));
      }
    });
    if (message instanceof MediaContent content && !content.getMedia().isEmpty()) {
      ArrayNode media = payload.putArray("media");
      content.getMedia().forEach(item -> media.add(media(item)));
    }
    if (message instanceof AssistantMessage assistant && !assistant.getToolCalls().isEmpty()) {
      ArrayNode calls = payload.putArray("toolCalls");
      for (AssistantMessage.ToolCall call : assistant.getToolCalls()) {
        calls.addObject().put("id", call.id()).put("type", call.type()).put("name", call.name())
            .put("arguments", call.arguments());
      }
    }
    if (message instanceof ToolResponseMessage tool) {
      ArrayNode responses = payload.putArray("responses");
      for (ToolResponseMessage.ToolResponse response : tool.getResponses()) {
        responses.addObject().put("id", response.id()).put("name", response.name())
            .put("responseData", response.responseData());
      }
    }
    return Json.from(payload);
  }

  @Override
  public Message decode(Event event) {
    return decode(event.type(), event.payload().tree());
  }

  /**
   * The message an event of {@code eventType} holds as {@code payload}, already parsed, for a caller that found it
   * inside a larger document: what {@link #decode(Event)} answers for such an event, without writing and parsing
   * the payload again.
   *
   * @throws IllegalArgumentException when {@code eventType} is not one of {@link #eventTypes()}
   */
  public Message decode(String eventType, JsonNode payload) {
    MessageType type = MESSAGE_TYPES.get(eventType);
    if (type == null) {
      throw new IllegalArgumentException("not a Spring AI message event: " + eventType);
    }
    String text = payload.path("text").isNull() ? null : payload.path("text").asText();
    Map<String, Object> metadata = new HashMap<>();
    payload.path("metadata").properties()
        .forEach(member -> metadata.put(member.getKey(), MetadataValues.read(member.getValue())));
    List<Media> media = new ArrayList<>();
    payload.path("media").forEach(item -> media.add(media(item)));
    return switch (type) {
      case USER -> UserMessage.builder().text(text).media(media).metadata(metadata).build();
      case SYSTEM -> SystemMessage.builder().text(text).metadata(metadata).build();
      case ASSISTANT -> {
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        payload.path("toolCalls").forEach(call -> calls.add(new AssistantMessage.ToolCall(text(call, "id"),
            text(call, "type"), text(call, "name"), text(call, "arguments"))));
        yield AssistantMessage.builder().content(text).properties(metadata).toolCalls(calls).media(media).build();
      }
      case TOOL -> {
        List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
        payload.path("responses").forEach(response -> responses.add(new ToolResponseMessage.ToolResponse(
            text(response, "id"), text(response, "name"), text(response, "responseData"))));
        yield ToolResponseMessage.builder().responses(responses).metadata(metadata).build();
      }
    };
  }

  private static ObjectNode media(Media media) {
    ObjectNode node = NODES.objectNode();
    node.put("mimeType", media.getMimeType().toString());
    node.put("id", media.getId());
    node.put("name", media.getName());
    ObjectNode data = node.putObject("data");
    if (media.getData() instanceof byte[] bytes) {
      data.put("bytes", Base64.getEncoder().encodeToString(bytes));
    } else {
      data.put("uri", String.valueOf(media.getData()));
    }
    return node;
  }

  private static Media media(JsonNode node) {
    JsonNode data = node.path("data");
    Media.Builder media = Media.builder().mimeType(MimeType.valueOf(node.path("mimeType").asText()))
        .id(text(node, "id")).name(text(node, "name"));
    if (data.has("bytes")) {
      media.data(Base64.getDecoder().decode(data.path("bytes").asText()));
    } else {
      media.data(data.path("uri").asText());
    }
    return media.build();
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isNull() || value.isMissingNode() ? null : value.asText();
  }
}
