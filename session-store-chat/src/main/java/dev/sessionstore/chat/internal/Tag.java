package dev.sessionstore.chat.internal;

/**
 * What a message instance handed out by a read (or stored by a write) is: the event holding it, and how far the log
 * reached when the instance was handed out (the caller's view).
 *
 * @param conversationId the conversation
 * @param eventId        the event holding the message
 * @param view           the log's last seq when the instance was handed out
 */
public record Tag(String conversationId, String eventId, long view) {
}
