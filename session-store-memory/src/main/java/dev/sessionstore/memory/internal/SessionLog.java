package dev.sessionstore.memory.internal;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.spi.EventBatch;
import dev.sessionstore.spi.EventFilter;
import dev.sessionstore.spi.EventPaging;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The event log of one session. Seqs are gapless from 1, so the event with seq {@code s} sits at index {@code s - 1}:
 * seq bounds of a read become index bounds, and a read after a cursor or of the tail touches only the events it
 * returns (plus, with filters, those it skips). Not thread-safe: guarded by the owning {@link SessionState}'s lock.
 */
final class SessionLog {

  private final ArrayList<Event> events = new ArrayList<>();
  private final Map<String, Event> byId = new HashMap<>();

  /** The seq of the last event, 0 when empty. */
  long lastSeq() {
    return events.size();
  }

  /** The event with this id, or {@code null}. */
  Event find(String eventId) {
    return byId.get(eventId);
  }

  /** The stored events among {@code eventIds}, by id. */
  Map<String, Event> findAll(Collection<String> eventIds) {
    Map<String, Event> found = new HashMap<>();
    for (String eventId : eventIds) {
      Event event = byId.get(eventId);
      if (event != null) {
        found.put(eventId, event);
      }
    }
    return found;
  }

  /** Stores {@code fresh} with the next seqs, stamping those without a timestamp {@code now}; returns them stored. */
  List<Event> append(String sessionId, List<NewEvent> fresh, Instant now) {
    List<Event> stored = new ArrayList<>(fresh.size());
    for (NewEvent event : fresh) {
      stored.add(append(sessionId, event, now));
    }
    return stored;
  }

  /** Stores {@code event} with the next seq, stamped {@code now} unless it has a timestamp; returns it stored. */
  Event append(String sessionId, NewEvent event, Instant now) {
    Event stored = EventBatch.toStored(sessionId, event, lastSeq() + 1, now);
    events.add(stored);
    byId.put(stored.id(), stored);
    return stored;
  }

  /** Adds already sequenced events that continue this log, as a fork receives its parent's prefix. */
  void addAll(List<Event> sequenced) {
    for (Event event : sequenced) {
      if (event.seq() != lastSeq() + 1) {
        throw new IllegalStateException("event " + event.id() + " has seq " + event.seq() + ", expected "
            + (lastSeq() + 1));
      }
      events.add(event);
      byId.put(event.id(), event);
    }
  }

  /** Removes the events with seq {@code >= fromSeq}; returns how many. */
  int truncateFrom(long fromSeq) {
    if (fromSeq > events.size()) {
      return 0;
    }
    List<Event> removed = events.subList((int) fromSeq - 1, events.size());
    int count = removed.size();
    removed.forEach(event -> byId.remove(event.id()));
    removed.clear();
    return count;
  }

  /** The events with {@code afterSeq < seq <= toSeq}, oldest-first. */
  List<Event> range(long afterSeq, long toSeq) {
    int from = clampIndex(afterSeq);
    int to = clampIndex(toSeq);
    return from >= to ? List.of() : List.copyOf(events.subList(from, to));
  }

  /** The events with {@code seq >= fromSeq}, oldest-first. */
  List<Event> from(long fromSeq) {
    return range(fromSeq - 1, lastSeq());
  }

  /** Removes every event. */
  void clear() {
    events.clear();
    byId.clear();
  }

  /** The page {@code query} selects, built by {@link EventPaging} from the matching events in fetch order. */
  EventPage read(EventQuery query) {
    int start = clampIndex(query.after());
    int end = query.before().isPresent() ? clampIndex(query.before().getAsLong() - 1) : events.size();
    long wanted = EventPaging.fetchLimit(query).orElse(Long.MAX_VALUE);
    List<Event> fetched = new ArrayList<>();
    if (EventPaging.fetchesNewestFirst(query)) {
      for (int index = end - 1; index >= start && fetched.size() < wanted; index--) {
        collect(query, index, fetched);
      }
    } else {
      for (int index = start; index < end && fetched.size() < wanted; index++) {
        collect(query, index, fetched);
      }
    }
    return EventPaging.page(fetched, query);
  }

  private void collect(EventQuery query, int index, List<Event> fetched) {
    Event event = events.get(index);
    if (EventFilter.matches(query, event)) {
      fetched.add(event);
    }
  }

  /** The index just past seq {@code seq}, within the log: the number of events with a seq up to it. */
  private int clampIndex(long seq) {
    return (int) Math.max(0, Math.min(seq, events.size()));
  }
}
