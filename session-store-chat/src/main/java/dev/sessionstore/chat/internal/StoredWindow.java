package dev.sessionstore.chat.internal;

import java.util.List;

/**
 * A conversation's window as read from its log in one consistent view.
 *
 * @param state   the window state in force
 * @param pinned  the pinned messages, ascending by seq
 * @param tail    the message events of the window's tail as {@code state} selects it, ascending by seq
 * @param lastSeq the seq the log ended at when read (0 for an empty log)
 * @param <M>     the framework's message type
 */
public record StoredWindow<M>(WindowState state, List<StoredMessage<M>> pinned, List<StoredMessage<M>> tail,
                              long lastSeq) {

  public StoredWindow {
    pinned = List.copyOf(pinned);
    tail = List.copyOf(tail);
  }

  /** The window of an empty log. */
  public static <M> StoredWindow<M> empty() {
    return new StoredWindow<>(WindowState.WHOLE_LOG, List.of(), List.of(), 0);
  }

  /** The window's messages in order: the pinned ones, then the tail. */
  public List<StoredMessage<M>> messages() {
    if (pinned.isEmpty()) {
      return tail;
    }
    return java.util.stream.Stream.concat(pinned.stream(), tail.stream()).toList();
  }
}
