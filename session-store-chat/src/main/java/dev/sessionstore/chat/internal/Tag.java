package dev.sessionstore.chat.internal;

/**
 * What a message instance handed out by a read (or stored by a write) is: the event holding it, and the snapshot it
 * was handed out in.
 *
 * @param snapshot the read or write that handed it out
 * @param eventId  the event holding the message
 */
public record Tag(Snapshot snapshot, String eventId) {
}
