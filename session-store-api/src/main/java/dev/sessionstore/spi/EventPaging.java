package dev.sessionstore.spi;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ReadDirection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;

/**
 * How a page of events is built from the matching events an adapter fetched (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#7">7</a> and its
 * fine print), identical in every adapter. An adapter fetches the events {@link EventFilter#matches} selects, in
 * {@linkplain #fetchesNewestFirst fetch order}, at most {@link #fetchLimit} of them (one beyond the query's limit, so
 * the page knows whether more remain), and hands them to {@link #page}, which keeps the limit, orders the page as the
 * query's {@link ReadDirection} says and sets the next cursor.
 */
public final class EventPaging {

  private EventPaging() {
  }

  /**
   * Whether the adapter fetches newest-first: for {@link ReadDirection#TAIL} and {@link ReadDirection#NEWEST_FIRST},
   * whose limit takes events from the end of the log. {@link ReadDirection#OLDEST_FIRST} fetches oldest-first.
   */
  public static boolean fetchesNewestFirst(EventQuery query) {
    return query.direction() != ReadDirection.OLDEST_FIRST;
  }

  /** How many matching events to fetch: the query's limit plus one, or empty (all of them) when it has none. */
  public static OptionalLong fetchLimit(EventQuery query) {
    return query.limit().isPresent() ? OptionalLong.of(query.limit().getAsInt() + 1L) : OptionalLong.empty();
  }

  /**
   * The page {@code query} selects, given {@code fetched}: its matching events in fetch order, at most
   * {@link #fetchLimit}. More than the limit means more remain, and the page's next cursor is the seq of its last
   * item in fetch order: the newest item for oldest-first, the oldest for the tail and newest-first. A tail page is
   * returned oldest-first.
   */
  public static EventPage page(List<Event> fetched, EventQuery query) {
    boolean more = query.limit().isPresent() && fetched.size() > query.limit().getAsInt();
    List<Event> items = more ? fetched.subList(0, query.limit().getAsInt()) : fetched;
    OptionalLong next = more ? OptionalLong.of(items.get(items.size() - 1).seq()) : OptionalLong.empty();
    if (query.direction() == ReadDirection.TAIL) {
      items = new ArrayList<>(items);
      Collections.reverse(items);
    }
    return new EventPage(items, next);
  }
}
