package dev.sessionstore.springai.session.internal;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Summaries;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.ai.session.EventFilter;
import org.springframework.ai.session.SessionEvent;

/**
 * The event list spring-ai-session sees for one session, read through the store's queries. The list is, in order:
 * the archived events (seq up to the latest compaction's {@code toSeq}, not in its window, in seq order), the
 * compaction's window (in the order the compaction gave), then the events appended after it (in seq order) — the
 * order of spring-ai-session's in-memory repository, with superseded events kept as archived instead of removed.
 *
 * <p>Reads push the message types and the {@code from} time into the store's query (its type and time indexes), skip
 * the archived part when the filter excludes it, and apply the rest of {@link EventFilter#matches} to decoded
 * events. The last N walk backwards page by page and stop when N matched, so their cost does not grow with history;
 * pages walk forwards and stop at the page's end.
 *
 * <p>The latest compaction is read only when the answer depends on it. Without a {@code from} time, the last N read
 * the compactions' markers with the messages, newest first, the first page sized N when nothing but the types narrows
 * the filter: when N events come before any marker (or the log holds none), they are the answer, all after the latest
 * compaction, and that one statement is the whole read; only on reaching a marker is the compaction read. Events are
 * decoded only as they are taken, so an unfiltered last N decodes exactly what it returns.
 */
public final class EventView {

  private static final int PAGE = 128;

  private final EventLog log;
  private final Summaries summaries;
  private final String sessionId;
  private final EventFilter filter;
  private final Set<String> types;
  private final boolean narrowedAfterDecoding;
  private CompactionWindow window;
  private Set<String> windowIds;

  /**
   * A view of {@code sessionId}, whose latest compaction {@code summaries} holds, narrowed by {@code filter}, whose
   * keyword is ignored here (the caller answers it through the search read). Not thread-safe: one view per read.
   */
  public EventView(EventLog log, Summaries summaries, String sessionId, EventFilter filter) {
    this.log = log;
    this.summaries = summaries;
    this.sessionId = sessionId;
    this.filter = new EventFilter(filter.from(), filter.to(), filter.messageTypes(), filter.excludeSynthetic(), null,
        null, null, null, filter.branch(), filter.excludeArchived());
    this.types = filter.messageTypes() == null ? SessionEventCodec.eventTypes()
        : filter.messageTypes().stream().map(SessionEventCodec::eventType).collect(Collectors.toUnmodifiableSet());
    this.narrowedAfterDecoding = filter.to() != null || filter.excludeSynthetic() || filter.branch() != null;
  }

  /** The last {@code n} matching events, oldest first. */
  public List<SessionEvent> last(int n) {
    List<SessionEvent> newestFirst = new ArrayList<>(n);
    if (filter.from() == null) {
      OptionalLong marker = newestBeforeMarker(n, newestFirst);
      if (marker.isEmpty() || newestFirst.size() >= n) {
        Collections.reverse(newestFirst);
        return newestFirst;
      }
      if (window().toSeq() != marker.getAsLong()) {
        newestFirst.clear();
        backwards(query().after(window().toSeq()), Long.MAX_VALUE, false, n, newestFirst);
      }
    } else {
      backwards(query().after(window().toSeq()), Long.MAX_VALUE, false, n, newestFirst);
    }
    CompactionWindow window = window();
    List<Event> windowEvents = window.events();
    for (int i = windowEvents.size() - 1; i >= 0 && newestFirst.size() < n; i--) {
      accept(windowEvents.get(i), false, newestFirst);
    }
    if (!filter.excludeArchived() && newestFirst.size() < n && window.toSeq() > 0) {
      backwards(query(), window.toSeq() + 1, true, n, newestFirst);
    }
    Collections.reverse(newestFirst);
    return newestFirst;
  }

  /** The matching events after skipping {@code skip} of them, at most {@code limit}, oldest first. */
  public List<SessionEvent> page(long skip, int limit) {
    CompactionWindow window = window();
    Page page = new Page(skip, limit);
    if (!filter.excludeArchived() && window.toSeq() > 0) {
      forwards(query().before(window.toSeq() + 1), true, page);
    }
    for (Event event : window.events()) {
      if (page.full()) {
        break;
      }
      page.offer(event, false);
    }
    forwards(query().after(window.toSeq()), false, page);
    return page.events;
  }

  /**
   * The events among {@code found} (events of this session, any order) that match, in this view's order: what a
   * search selected, placed where a full read would have placed it.
   */
  public List<SessionEvent> among(Collection<Event> found) {
    CompactionWindow window = window();
    Map<String, Integer> windowOrder = new HashMap<>();
    List<Event> windowEvents = window.events();
    for (int i = 0; i < windowEvents.size(); i++) {
      windowOrder.put(windowEvents.get(i).id(), i);
    }
    List<Event> archived = new ArrayList<>();
    Event[] inWindow = new Event[windowEvents.size()];
    List<Event> after = new ArrayList<>();
    for (Event event : found) {
      Integer position = windowOrder.get(event.id());
      if (position != null) {
        inWindow[position] = event;
      } else if (event.seq() <= window.toSeq()) {
        archived.add(event);
      } else {
        after.add(event);
      }
    }
    archived.sort(Comparator.comparingLong(Event::seq));
    after.sort(Comparator.comparingLong(Event::seq));
    List<SessionEvent> matched = new ArrayList<>();
    if (!filter.excludeArchived()) {
      archived.forEach(event -> accept(event, true, matched));
    }
    for (Event event : inWindow) {
      if (event != null) {
        accept(event, false, matched);
      }
    }
    after.forEach(event -> accept(event, false, matched));
    return matched;
  }

  /** The event types this view reads: the messages' (all of them, or the filter's message types). */
  public Set<String> types() {
    return types;
  }

  /** The latest compaction's window, read on first use. */
  private CompactionWindow window() {
    if (window == null) {
      window = summaries.latest(sessionId).map(summary -> CompactionWindow.of(sessionId, summary))
          .orElseGet(CompactionWindow::none);
      windowIds = window.ids();
    }
    return window;
  }

  /**
   * Takes the matching events into {@code newestFirst}, newest first, from the end of the log back to the latest
   * compaction's marker or until it holds {@code n}, and answers the seq of the marker it stopped at, if it reached
   * one before holding {@code n}.
   */
  private OptionalLong newestBeforeMarker(int n, List<SessionEvent> newestFirst) {
    Set<String> typesAndMarker = new HashSet<>(types);
    typesAndMarker.add(CompactionWindow.MARKER_TYPE);
    EventQuery query = EventQuery.all().types(typesAndMarker.toArray(String[]::new));
    int size = firstPage(n, n);
    long cursor = Long.MAX_VALUE;
    while (true) {
      EventPage page = log.read(sessionId, (cursor == Long.MAX_VALUE ? query : query.before(cursor)).last(size));
      List<Event> items = page.items();
      for (int i = items.size() - 1; i >= 0 && newestFirst.size() < n; i--) {
        Event event = items.get(i);
        if (event.type().equals(CompactionWindow.MARKER_TYPE)) {
          return OptionalLong.of(event.seq());
        }
        accept(event, false, newestFirst);
      }
      if (newestFirst.size() >= n || page.nextCursor().isEmpty()) {
        return OptionalLong.empty();
      }
      cursor = page.nextCursor().getAsLong();
      size = Math.max(PAGE, n);
    }
  }

  private EventQuery query() {
    EventQuery query = EventQuery.all().types(types.toArray(String[]::new));
    return filter.from() == null ? query : query.since(filter.from());
  }

  /**
   * The size of a walk's first page that should yield {@code wanted} events: just that when only the types narrow the
   * filter (the query applies them), else a whole page, as every later page is.
   */
  private int firstPage(int wanted, int n) {
    return narrowedAfterDecoding ? Math.max(PAGE, n) : Math.max(1, wanted);
  }

  private void backwards(EventQuery query, long before, boolean archived, int n, List<SessionEvent> newestFirst) {
    long cursor = before;
    int size = firstPage(n - newestFirst.size() + (archived ? windowIds.size() : 0), n);
    while (newestFirst.size() < n) {
      EventQuery pageQuery = cursor == Long.MAX_VALUE ? query : query.before(cursor);
      EventPage page = log.read(sessionId, pageQuery.last(size));
      List<Event> items = page.items();
      for (int i = items.size() - 1; i >= 0 && newestFirst.size() < n; i--) {
        if (!archived || !windowIds.contains(items.get(i).id())) {
          accept(items.get(i), archived, newestFirst);
        }
      }
      if (page.nextCursor().isEmpty()) {
        return;
      }
      cursor = page.nextCursor().getAsLong();
      size = Math.max(PAGE, n);
    }
  }

  private void forwards(EventQuery query, boolean archived, Page page) {
    EventQuery next = query;
    while (!page.full()) {
      EventPage read = log.read(sessionId, next.first(PAGE));
      for (Event event : read.items()) {
        if (page.full()) {
          return;
        }
        if (!archived || !windowIds.contains(event.id())) {
          page.offer(event, archived);
        }
      }
      if (read.nextCursor().isEmpty()) {
        return;
      }
      next = next.after(read.nextCursor().getAsLong());
    }
  }

  private void accept(Event event, boolean archived, List<SessionEvent> into) {
    SessionEvent decoded = SessionEventCodec.decode(event, archived);
    if (filter.matches(decoded)) {
      into.add(decoded);
    }
  }

  /** A page being filled: skips the first matches, then keeps up to the limit. */
  private final class Page {

    private final List<SessionEvent> events = new ArrayList<>();
    private final int limit;
    private long skip;

    Page(long skip, int limit) {
      this.skip = skip;
      this.limit = limit;
    }

    boolean full() {
      return events.size() >= limit;
    }

    void offer(Event event, boolean archived) {
      SessionEvent decoded = SessionEventCodec.decode(event, archived);
      if (!filter.matches(decoded)) {
        return;
      }
      if (skip > 0) {
        skip--;
      } else {
        events.add(decoded);
      }
    }
  }
}
