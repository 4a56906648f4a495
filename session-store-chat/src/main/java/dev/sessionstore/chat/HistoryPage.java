package dev.sessionstore.chat;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One page of a conversation's full history, window or not, in the order the query asked for.
 * {@link #nextCursor()} continues the read as {@link dev.sessionstore.EventPage#nextCursor()} does.
 *
 * @param entries    the messages with their events
 * @param nextCursor the seq to continue from, present only when more events remain that way
 * @param <M>        the framework's message type
 */
public record HistoryPage<M>(List<HistoryEntry<M>> entries, OptionalLong nextCursor) {

  public HistoryPage {
    entries = List.copyOf(entries);
    Objects.requireNonNull(nextCursor, "nextCursor");
  }

  /** The messages of the page, in page order. */
  public List<M> messages() {
    return entries.stream().map(HistoryEntry::message).toList();
  }
}
