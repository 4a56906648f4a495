package dev.sessionstore.chat.internal;

import dev.sessionstore.Json;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one {@code replace} writes, as one step: an optional cut, the message events to append after it, and the
 * window state to record, if it changes.
 *
 * @param cutFrom  the seq to cut the log at, or empty
 * @param appended the message events to append, in order
 * @param window   the new window state, when a window event must record it
 * @param <M>      the framework's message type
 */
public record WindowPlan<M>(OptionalLong cutFrom, List<Append<M>> appended, Optional<WindowState> window) {

  public WindowPlan {
    appended = List.copyOf(appended);
  }

  /** Whether the plan writes nothing: the list handed in is the stored window. */
  public boolean isEmpty() {
    return cutFrom.isEmpty() && appended.isEmpty() && window.isEmpty();
  }

  /**
   * One message event to append.
   *
   * @param eventId   its id
   * @param type      its type
   * @param payload   its payload
   * @param message   the message
   * @param listIndex its index in the list handed in, or -1 for a message another writer stored concurrently that a
   *                  cut re-appends
   * @param <M>       the framework's message type
   */
  public record Append<M>(String eventId, String type, Json payload, M message, int listIndex) {
  }
}
