package dev.sessionstore.chat.internal;

/**
 * A thread's read of a conversation not yet followed by its write: the snapshot handed out with the read and the
 * window it read, which the write is first tried against.
 *
 * @param snapshot what the read handed out
 * @param window   the window the read returned, as read
 * @param <M>      the framework's message type
 */
public record PendingRead<M>(Snapshot snapshot, StoredWindow<M> window) {
}
