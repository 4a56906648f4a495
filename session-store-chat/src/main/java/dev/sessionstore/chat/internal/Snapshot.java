package dev.sessionstore.chat.internal;

import java.util.List;

/**
 * What one caller was handed: the window of one read (or the list one write stored), as the ids of its message events
 * in order, and the log's last seq at that moment. Every instance of that read or write is tagged with this one object,
 * so a list handed back names exactly what its caller saw.
 *
 * @param conversationId the conversation
 * @param eventIds       the ids of the window's message events, in window order
 * @param view           the log's last seq when the window was read or written
 * @param order          a number growing with each snapshot a chat log makes: the higher, the newer
 */
public record Snapshot(String conversationId, List<String> eventIds, long view, long order) {

  public Snapshot {
    eventIds = List.copyOf(eventIds);
  }
}
