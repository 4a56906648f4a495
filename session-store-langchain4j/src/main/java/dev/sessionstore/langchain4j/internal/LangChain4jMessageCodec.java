package dev.sessionstore.langchain4j.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.data.message.ChatMessageType;
import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.chat.MessageCodec;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * LangChain4j messages as events: the event type from the message type ({@code system_message},
 * {@code user_message}, {@code ai_message}, {@code tool_execution_result_message}, {@code custom_message}) and the
 * payload LangChain4j's own JSON of the message ({@link ChatMessageSerializer#messageToJson}), read back with
 * {@link ChatMessageDeserializer#messageFromJson}.
 */
public final class LangChain4jMessageCodec implements MessageCodec<ChatMessage> {

  private static final JsonFactory JSON = new JsonFactory();

  private static final Map<ChatMessageType, String> EVENT_TYPES = new EnumMap<>(ChatMessageType.class);
  private static final Map<String, ChatMessageType> MESSAGE_TYPES = new HashMap<>();

  static {
    for (ChatMessageType type : ChatMessageType.values()) {
      String eventType = type.name().toLowerCase(Locale.ROOT) + "_message";
      EVENT_TYPES.put(type, eventType);
      MESSAGE_TYPES.put(eventType, type);
    }
  }

  @Override
  public Set<String> eventTypes() {
    return MESSAGE_TYPES.keySet();
  }

  @Override
  public String eventType(ChatMessage message) {
    return EVENT_TYPES.get(message.type());
  }

  /** A system message: LangChain4j's window memories keep it first while they evict the rest. */
  @Override
  public boolean isPinned(ChatMessage message) {
    return message.type() == ChatMessageType.SYSTEM;
  }

  @Override
  public Json payload(ChatMessage message) {
    return Json.parse("message", ChatMessageSerializer.messageToJson(message));
  }

  @Override
  public ChatMessage decode(Event event) {
    return ChatMessageDeserializer.messageFromJson(messageJson(event));
  }

  /**
   * The events' messages read with one {@link ChatMessageDeserializer#messagesFromJson} of the array of their
   * payloads: the same messages as one {@link #decode} each, without a parse's fixed cost per message.
   */
  @Override
  public List<ChatMessage> decodeAll(List<Event> events) {
    if (events.size() < 2) {
      return MessageCodec.super.decodeAll(events);
    }
    StringWriter array = new StringWriter();
    try (JsonGenerator generator = JSON.createGenerator(array)) {
      generator.writeStartArray();
      for (Event event : events) {
        generator.writeRawValue(messageJson(event));
      }
      generator.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return ChatMessageDeserializer.messagesFromJson(array.toString());
  }

  /** The payload text of a message event. */
  private static String messageJson(Event event) {
    if (!MESSAGE_TYPES.containsKey(event.type())) {
      throw new IllegalArgumentException("not a LangChain4j message event: " + event.type());
    }
    return event.payload().text();
  }
}
