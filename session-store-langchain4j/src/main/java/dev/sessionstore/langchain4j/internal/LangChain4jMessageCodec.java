package dev.sessionstore.langchain4j.internal;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.data.message.ChatMessageType;
import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.chat.MessageCodec;
import java.util.EnumMap;
import java.util.HashMap;
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
    if (!MESSAGE_TYPES.containsKey(event.type())) {
      throw new IllegalArgumentException("not a LangChain4j message event: " + event.type());
    }
    return ChatMessageDeserializer.messageFromJson(event.payload().text());
  }
}
