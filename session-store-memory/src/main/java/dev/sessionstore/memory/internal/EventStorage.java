package dev.sessionstore.memory.internal;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.spi.EventFilter;
import dev.sessionstore.spi.ForkRule;
import dev.sessionstore.spi.SearchText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A run of consecutive events of one session, from {@link #firstSeq()} on, that forks of the session may share with
 * it. Only the owning session's log adds to it or cuts it, and only at its end; a fork reads it up to its fork point,
 * which later appends never reach. Once {@linkplain #share() shared}, a storage is never cut: a session that cuts
 * its log moves to a {@linkplain #copyUpTo copy} and leaves the storage as it is to the forks that read it.
 *
 * <p>Thread-safe: the owner writes under its session's lock and forks read under theirs, so every access holds this
 * storage's monitor, which is taken last (no session lock is ever taken while holding it).
 *
 * <p>The search index is built lazily: an append only stores the event, and the first {@link #search} after it
 * indexes every event not yet indexed (the events below {@link #indexed}), under the same monitor, so a search sees
 * exactly the events held when it runs. Appends that no search follows never read their payloads again, and each
 * payload is read at most once for the index (again only when its payload is replaced).
 */
final class EventStorage {

  private final long firstSeq;
  private final ArrayList<Event> events = new ArrayList<>();
  private final Map<String, Event> byId = new HashMap<>();
  /**
   * The inverted index of search over the events below {@link #indexed}: each word form, to the indexes in
   * {@link #events} holding it, ascending.
   */
  private final NavigableMap<String, List<Integer>> postings = new TreeMap<>();
  /** How many of {@link #events}, from the first, {@link #postings} holds; the rest are indexed by the next search. */
  private int indexed;
  private boolean shared;
  /**
   * How many events {@link #find}, {@link #collect} and {@link #search} looked at, for tests of the work a call does.
   */
  private long visits;

  EventStorage(long firstSeq) {
    this.firstSeq = firstSeq;
  }

  long firstSeq() {
    return firstSeq;
  }

  /** The seq of the last event held, {@code firstSeq - 1} when empty. */
  synchronized long lastSeq() {
    return firstSeq - 1 + events.size();
  }

  /** Adds {@code event}, whose seq is {@code lastSeq() + 1}. */
  synchronized void add(Event event) {
    events.add(event);
    byId.put(event.id(), event);
  }

  /** The event with this id if its seq is within {@code fromSeq..toSeq}, as session {@code sessionId} holds it. */
  synchronized Event find(String eventId, long fromSeq, long toSeq, String sessionId) {
    Event event = byId.get(eventId);
    visits++;
    return event == null || event.seq() < fromSeq || event.seq() > toSeq ? null : as(event, sessionId);
  }

  /**
   * Adds to {@code fetched} the events with {@code afterSeq < seq <= toSeq} that {@code query} matches, as session
   * {@code sessionId} holds them, oldest-first or newest-first, until {@code fetched} holds {@code wanted}.
   */
  synchronized void collect(long afterSeq, long toSeq, boolean newestFirst, EventQuery query, String sessionId,
      List<Event> fetched, long wanted) {
    long first = Math.max(afterSeq, firstSeq - 1);
    long last = Math.min(toSeq, lastSeq());
    if (first >= last) {
      return;
    }
    int from = (int) (first + 1 - firstSeq);
    int to = (int) (last - firstSeq);
    for (int i = 0; i <= to - from && fetched.size() < wanted; i++) {
      Event event = events.get(newestFirst ? to - i : from + i);
      visits++;
      if (EventFilter.matches(query, event)) {
        fetched.add(as(event, sessionId));
      }
    }
  }

  /**
   * Replaces the payload of the event at {@code seq} with {@code replacement} if it is {@code expected}, keeping
   * everything else; false when it is not, or the storage does not hold that seq. Forks sharing the storage see the
   * new payload, as they see the same stored event.
   */
  synchronized boolean replacePayload(long seq, Json expected, Json replacement) {
    if (seq < firstSeq || seq > lastSeq()) {
      return false;
    }
    int index = (int) (seq - firstSeq);
    Event event = events.get(index);
    if (!event.payload().text().equals(expected.text())) {
      return false;
    }
    Event replaced = new Event(event.sessionId(), event.seq(), event.id(), event.type(), event.runId(),
        event.agentId(), event.parentId(), replacement, event.timestamp());
    events.set(index, replaced);
    byId.put(replaced.id(), replaced);
    if (index < indexed) {
      unindex(event, index);
      index(replaced, index);
    }
    return true;
  }

  /** Removes the events with seq {@code >= fromSeq}; only for a storage that is not shared. */
  synchronized void cutFrom(long fromSeq) {
    if (shared) {
      throw new IllegalStateException("a shared event storage is never cut");
    }
    List<Event> removed = events.subList((int) (Math.max(fromSeq, firstSeq) - firstSeq), events.size());
    int from = (int) (Math.max(fromSeq, firstSeq) - firstSeq);
    for (int i = indexed - 1; i >= from; i--) {
      unindex(events.get(i), i);
    }
    indexed = Math.min(indexed, from);
    removed.forEach(event -> byId.remove(event.id()));
    removed.clear();
  }

  /** A new, unshared storage holding this one's events up to seq {@code toSeq}. */
  synchronized EventStorage copyUpTo(long toSeq) {
    EventStorage copy = new EventStorage(firstSeq);
    events.subList(0, (int) (Math.min(toSeq, lastSeq()) - firstSeq + 1)).forEach(copy::add);
    return copy;
  }

  /** A new, unshared storage holding this one's events from seq {@code fromSeq} on (it starts there). */
  synchronized EventStorage copyFrom(long fromSeq) {
    EventStorage copy = new EventStorage(fromSeq);
    int from = (int) Math.min(Math.max(fromSeq - firstSeq, 0), events.size());
    events.subList(from, events.size()).forEach(copy::add);
    return copy;
  }

  /**
   * Adds to {@code found} the events with {@code fromSeq <= seq <= toSeq} that hold every one of {@code words} (a
   * prefix word: some word starting with it), as session {@code sessionId} holds them, read through the inverted
   * index: the work is that of the postings of the query's words and the events holding all of them, plus indexing
   * the events appended since the previous search (see the class description).
   */
  synchronized void search(List<SearchTerm> words, long fromSeq, long toSeq, String sessionId, List<Event> found) {
    for (; indexed < events.size(); indexed++) {
      index(events.get(indexed), indexed);
    }
    List<Integer> matching = null;
    for (SearchTerm word : words) {
      List<Integer> holding = holding(word);
      matching = matching == null ? holding : intersect(matching, holding);
      if (matching.isEmpty()) {
        return;
      }
    }
    for (int index : matching) {
      long seq = firstSeq + index;
      if (seq >= fromSeq && seq <= toSeq) {
        visits++;
        found.add(as(events.get(index), sessionId));
      }
    }
  }

  /** The ascending event indexes holding {@code word}, or a word it prefixes when it is a prefix. */
  private List<Integer> holding(SearchTerm word) {
    String form = word.words().get(0);
    if (!word.prefix()) {
      return postings.getOrDefault(form, List.of());
    }
    TreeSet<Integer> union = new TreeSet<>();
    for (Map.Entry<String, List<Integer>> entry : postings.tailMap(form, true).entrySet()) {
      if (!entry.getKey().startsWith(form)) {
        break;
      }
      union.addAll(entry.getValue());
    }
    return new ArrayList<>(union);
  }

  private static List<Integer> intersect(List<Integer> left, List<Integer> right) {
    List<Integer> both = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < left.size() && j < right.size()) {
      int compared = Integer.compare(left.get(i), right.get(j));
      if (compared == 0) {
        both.add(left.get(i));
        i++;
        j++;
      } else if (compared < 0) {
        i++;
      } else {
        j++;
      }
    }
    return both;
  }

  private void index(Event event, int index) {
    for (String word : SearchText.words(event.payload())) {
      List<Integer> holding = postings.computeIfAbsent(word, key -> new ArrayList<>());
      int at = Collections.binarySearch(holding, index);
      if (at < 0) {
        holding.add(-at - 1, index);
      }
    }
  }

  private void unindex(Event event, int index) {
    for (String word : SearchText.words(event.payload())) {
      List<Integer> holding = postings.get(word);
      int at = holding == null ? -1 : Collections.binarySearch(holding, index);
      if (at >= 0) {
        holding.remove(at);
        if (holding.isEmpty()) {
          postings.remove(word);
        }
      }
    }
  }

  /**
   * How many events this storage has looked at so far, each lookup by id and each event a range read examined: the
   * work its reads did, which must follow what they return, never the length of the log.
   */
  synchronized long visits() {
    return visits;
  }

  /** Marks this storage as read by a fork: from now on it is never cut. */
  synchronized void share() {
    shared = true;
  }

  synchronized boolean isShared() {
    return shared;
  }

  private static Event as(Event event, String sessionId) {
    return event.sessionId().equals(sessionId) ? event : ForkRule.copy(event, sessionId);
  }
}
