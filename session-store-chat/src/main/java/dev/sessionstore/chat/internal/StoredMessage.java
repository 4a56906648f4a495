package dev.sessionstore.chat.internal;

import dev.sessionstore.Json;

/**
 * A message of the stored window with the event that holds it.
 *
 * @param seq     the event's seq
 * @param eventId the event's id
 * @param type    the event's type
 * @param payload the event's payload
 * @param message the decoded message
 * @param <M>     the framework's message type
 */
public record StoredMessage<M>(long seq, String eventId, String type, Json payload, M message) {
}
