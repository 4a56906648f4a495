package dev.sessionstore.chat.internal;

import dev.sessionstore.Event;
import dev.sessionstore.Json;

/**
 * A message of the stored window with the event that holds it.
 *
 * @param event   the event
 * @param message the message decoded from it (or the instance that was written as it)
 * @param <M>     the framework's message type
 */
public record StoredMessage<M>(Event event, M message) {

  /** The event's seq. */
  public long seq() {
    return event.seq();
  }

  /** The event's id. */
  public String eventId() {
    return event.id();
  }

  /** The event's type. */
  public String type() {
    return event.type();
  }

  /** The event's payload. */
  public Json payload() {
    return event.payload();
  }
}
