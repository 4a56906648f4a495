package dev.sessionstore.chat;

import dev.sessionstore.Event;
import dev.sessionstore.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How a bridge maps its framework's message type to events and back: the only framework-specific part of a chat
 * memory built on {@link ChatLog}. One message is one event; its type names the message kind and its payload is a
 * lossless JSON of the message.
 *
 * <p>Contract: {@code decode(event)} of an event with {@code eventType(m)} and {@code payload(m)} returns a message
 * whose {@code payload} is equal to {@code payload(m)} (as {@link Json#equals} compares documents); the diff of
 * {@link ChatLog#replace} relies on it to recognize stored messages by content. Implementations are stateless and
 * thread-safe.
 *
 * @param <M> the framework's message type
 */
public interface MessageCodec<M> {

  /** Every event type this codec writes; reads of a conversation ignore events of other types. */
  Set<String> eventTypes();

  /** The event type of {@code message}, one of {@link #eventTypes()}. */
  String eventType(M message);

  /** The lossless JSON of {@code message}, the same document for equal content every time it is called. */
  Json payload(M message);

  /** The message stored as {@code event}, whose type is one of {@link #eventTypes()}. */
  M decode(Event event);

  /**
   * The messages stored as {@code events}, in order, each a new instance equal to what {@link #decode} returns for
   * it; every event's type is one of {@link #eventTypes()}. By default one {@code decode} per event; a codec whose
   * framework reads a list of messages in one call faster than one by one overrides it (a window is read whole).
   */
  default List<M> decodeAll(List<Event> events) {
    List<M> messages = new ArrayList<>(events.size());
    for (Event event : events) {
      messages.add(decode(event));
    }
    return messages;
  }

  /**
   * Whether a window memory keeps {@code message} in place while it evicts what follows it: a system prompt. A list
   * that keeps only such messages of what it saw and adds new ones is read as a window that moved past everything
   * else it held (eviction, the history kept), never as an edit that removes it.
   */
  boolean isPinned(M message);
}
