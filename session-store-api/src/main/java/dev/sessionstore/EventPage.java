package dev.sessionstore;

import java.util.List;
import java.util.OptionalLong;

/**
 * One page of events, in the order the query's {@link ReadDirection} names.
 *
 * <p>{@link #nextCursor()} is the seq to continue from in the page's direction, present only when more matching
 * events remain that way: pass it as {@code after} for {@link ReadDirection#OLDEST_FIRST}, as {@code before} for
 * {@link ReadDirection#TAIL} and {@link ReadDirection#NEWEST_FIRST}.
 */
public record EventPage(List<Event> items, OptionalLong nextCursor) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public EventPage {
    items = List.copyOf(Checks.requireNonNull("items", items));
    Checks.requireNonNull("nextCursor", nextCursor);
  }

  /** Whether the page holds no events. */
  public boolean isEmpty() {
    return items.isEmpty();
  }
}
