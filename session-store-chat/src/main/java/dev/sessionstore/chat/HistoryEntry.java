package dev.sessionstore.chat;

import dev.sessionstore.Event;
import java.util.Objects;

/**
 * One stored message of a conversation's full history, with the event that holds it (its seq, id and timestamp).
 *
 * @param event   the stored event
 * @param message the message decoded from it
 * @param <M>     the framework's message type
 */
public record HistoryEntry<M>(Event event, M message) {

  public HistoryEntry {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(message, "message");
  }
}
