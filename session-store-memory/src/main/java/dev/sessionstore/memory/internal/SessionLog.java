package dev.sessionstore.memory.internal;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.spi.EventBatch;
import dev.sessionstore.spi.EventPaging;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The event log of one session: the events it shares with the sessions it was forked from, then its own.
 *
 * <p>A fork costs the same whatever the length of the log: it copies no event. The fork's log holds
 * {@linkplain Segment segments}, each a seq range of an {@link EventStorage} of an ancestor (flattened: a fork of a
 * fork takes its parent's segments, cut at the fork point, and the parent's own storage up to it), then a storage of
 * its own from the fork point on. Seqs are gapless, so the event with seq {@code s} sits at a known index of the one
 * storage whose range holds {@code s}: seq bounds of a read become index bounds, and a read after a cursor or of the
 * tail touches only the events it returns (plus, with filters, those it skips). An id is looked up in each storage
 * and counts only within its segment's range, so a fork never sees its parent's later events, and replays match the
 * shared events too. Shared events are returned with this log's session id.
 *
 * <p>A storage a fork reads never changes below the fork point: its owner only appends after it, and cutting a
 * shared storage moves the owner to a copy of what it keeps. Deleting a session drops its references only; the
 * storages its forks read stay alive through the forks. Not thread-safe: guarded by the owning
 * {@link SessionState}'s lock (the storages guard themselves).
 */
final class SessionLog {

  /** Seqs {@code fromSeq..toSeq} of a storage, as part of this log. */
  private record Segment(EventStorage storage, long fromSeq, long toSeq) {
  }

  private final String sessionId;
  private final List<Segment> shared;
  /** Volatile: {@link #lastSeq()} is read without the session's lock, by {@link SessionState#session()}. */
  private volatile EventStorage own;
  /** The seq of the first event naming each run. */
  private final Map<String, Long> firstSeqByRun;

  SessionLog(String sessionId) {
    this(sessionId, List.of(), new EventStorage(1), new HashMap<>());
  }

  private SessionLog(String sessionId, List<Segment> shared, EventStorage own, Map<String, Long> firstSeqByRun) {
    this.sessionId = sessionId;
    this.shared = new ArrayList<>(shared);
    this.own = own;
    this.firstSeqByRun = firstSeqByRun;
  }

  /** The seq of the last event, 0 when empty. */
  long lastSeq() {
    return own.lastSeq();
  }

  /**
   * The seq of the first event the log holds: 1, or the seq after a retention cut ({@link #cutThrough}); past
   * {@link #lastSeq()} when the log is empty.
   */
  long firstSeq() {
    return shared.isEmpty() ? own.firstSeq() : shared.get(0).fromSeq();
  }

  /** The event with this id, or {@code null}. */
  Event find(String eventId) {
    Event event = own.find(eventId, own.firstSeq(), Long.MAX_VALUE, sessionId);
    for (int i = 0; event == null && i < shared.size(); i++) {
      Segment segment = shared.get(i);
      event = segment.storage().find(eventId, segment.fromSeq(), segment.toSeq(), sessionId);
    }
    return event;
  }

  /** The stored events among {@code eventIds}, by id. */
  Map<String, Event> findAll(Collection<String> eventIds) {
    Map<String, Event> found = new HashMap<>();
    for (String eventId : eventIds) {
      Event event = find(eventId);
      if (event != null) {
        found.put(eventId, event);
      }
    }
    return found;
  }

  /** The seq of the first event that names run {@code runId}, or 0 when none does. */
  long firstSeqNaming(String runId) {
    return firstSeqByRun.getOrDefault(runId, 0L);
  }

  /** Stores {@code fresh} with the next seqs, stamping those without a timestamp {@code now}; returns them stored. */
  List<Event> append(List<NewEvent> fresh, Instant now) {
    List<Event> stored = new ArrayList<>(fresh.size());
    for (NewEvent event : fresh) {
      stored.add(append(event, now));
    }
    return stored;
  }

  /** Stores {@code event} with the next seq, stamped {@code now} unless it has a timestamp; returns it stored. */
  Event append(NewEvent event, Instant now) {
    Event stored = EventBatch.toStored(sessionId, event, lastSeq() + 1, now);
    own.add(stored);
    if (stored.runId() != null) {
      firstSeqByRun.putIfAbsent(stored.runId(), stored.seq());
    }
    return stored;
  }

  /**
   * Stores events that already have their seqs (an imported log), the first one {@code cutSeq + 1} and each the next;
   * for an empty log, which then holds what a log cut through {@code cutSeq} ({@link #cutThrough}) holds.
   */
  void addAll(long cutSeq, List<Event> sequenced) {
    if (cutSeq > 0) {
      if (lastSeq() != 0 || !shared.isEmpty()) {
        throw new IllegalStateException("an imported log is stored into an empty one");
      }
      own = new EventStorage(cutSeq + 1);
    }
    for (Event event : sequenced) {
      if (event.seq() != lastSeq() + 1) {
        throw new IllegalStateException("event " + event.id() + " has seq " + event.seq() + ", expected "
            + (lastSeq() + 1));
      }
      own.add(event);
      if (event.runId() != null) {
        firstSeqByRun.putIfAbsent(event.runId(), event.seq());
      }
    }
  }

  /**
   * The log of a fork of this one at {@code atSeq} (at most {@link #lastSeq()}), for session {@code forkId}: it
   * shares events {@code 1..atSeq} and copies none of them.
   */
  SessionLog forkAt(String forkId, long atSeq) {
    List<Segment> segments = new ArrayList<>(cut(shared, atSeq));
    if (atSeq >= own.firstSeq()) {
      own.share();
      segments.add(new Segment(own, own.firstSeq(), atSeq));
    }
    Map<String, Long> runs = new HashMap<>(firstSeqByRun);
    runs.values().removeIf(seq -> seq > atSeq);
    return new SessionLog(forkId, segments, new EventStorage(atSeq + 1), runs);
  }

  /** Removes the events with seq {@code >= fromSeq}; returns how many. Forks of this log keep them. */
  int truncateFrom(long fromSeq) {
    long lastSeq = lastSeq();
    if (fromSeq > lastSeq) {
      return 0;
    }
    if (fromSeq < own.firstSeq()) {
      List<Segment> kept = cut(shared, fromSeq - 1);
      shared.clear();
      shared.addAll(kept);
      own = new EventStorage(fromSeq);
    } else if (own.isShared()) {
      own = own.copyUpTo(fromSeq - 1);
    } else {
      own.cutFrom(fromSeq);
    }
    firstSeqByRun.values().removeIf(seq -> seq >= fromSeq);
    return (int) (lastSeq - fromSeq + 1);
  }

  /**
   * Removes the events with seq {@code <= toSeq} from the head of the log (a retention cut); returns how many. Seqs
   * and {@link #lastSeq()} do not change. Forks of this log keep them: a storage they share is left as it is, and
   * this log moves to a copy of what it keeps.
   */
  int cutThrough(long toSeq) {
    long first = firstSeq();
    if (toSeq < first) {
      return 0;
    }
    List<Segment> kept = new ArrayList<>();
    for (Segment segment : shared) {
      if (segment.toSeq() > toSeq) {
        kept.add(new Segment(segment.storage(), Math.max(segment.fromSeq(), toSeq + 1), segment.toSeq()));
      }
    }
    shared.clear();
    shared.addAll(kept);
    if (toSeq >= own.firstSeq()) {
      own = own.copyFrom(toSeq + 1);
    }
    firstSeqByRun.clear();
    for (Event event : from(toSeq + 1)) {
      if (event.runId() != null) {
        firstSeqByRun.putIfAbsent(event.runId(), event.seq());
      }
    }
    return (int) (Math.min(toSeq, lastSeq()) - first + 1);
  }

  /** The storages this log reads: its own, then those it shares with its ancestors, oldest first. */
  List<EventStorage> storages() {
    List<EventStorage> storages = new ArrayList<>();
    storages.add(own);
    shared.forEach(segment -> storages.add(segment.storage()));
    return storages;
  }

  /** The events this log shows that are held in one of {@code storages}, as this session holds them, by seq. */
  List<Event> shownFrom(Set<EventStorage> storages) {
    List<Event> events = new ArrayList<>();
    for (Segment segment : shared) {
      if (storages.contains(segment.storage())) {
        segment.storage().collect(segment.fromSeq() - 1, segment.toSeq(), false, EventQuery.all(), sessionId, events,
            Long.MAX_VALUE);
      }
    }
    EventStorage current = own;
    if (storages.contains(current)) {
      current.collect(current.firstSeq() - 1, Long.MAX_VALUE, false, EventQuery.all(), sessionId, events,
          Long.MAX_VALUE);
    }
    return events;
  }

  /**
   * Replaces the payload of the event this log shows at {@code seq} if it is {@code expected}, in the storage that
   * holds it (its own, or one it shares with its parent or forks); false when it is not, or the log does not show
   * that seq.
   */
  boolean replacePayload(long seq, Json expected, Json replacement) {
    EventStorage current = own;
    if (seq >= current.firstSeq()) {
      return current.replacePayload(seq, expected, replacement);
    }
    for (Segment segment : shared) {
      if (seq >= segment.fromSeq() && seq <= segment.toSeq()) {
        return segment.storage().replacePayload(seq, expected, replacement);
      }
    }
    return false;
  }

  /** The segments of {@code segments} up to seq {@code toSeq}, the last one cut there. */
  private static List<Segment> cut(List<Segment> segments, long toSeq) {
    List<Segment> kept = new ArrayList<>();
    for (Segment segment : segments) {
      if (segment.fromSeq() <= toSeq) {
        kept.add(new Segment(segment.storage(), segment.fromSeq(), Math.min(segment.toSeq(), toSeq)));
      }
    }
    return kept;
  }

  /** The events with {@code afterSeq < seq <= toSeq}, oldest-first. */
  List<Event> range(long afterSeq, long toSeq) {
    List<Event> events = new ArrayList<>();
    collect(afterSeq, toSeq, false, EventQuery.all(), events, Long.MAX_VALUE);
    return events;
  }

  /** The events with {@code seq >= fromSeq}, oldest-first. */
  List<Event> from(long fromSeq) {
    return range(fromSeq - 1, lastSeq());
  }

  /** How many events the storages this log reads have looked at so far ({@link EventStorage#visits()}). */
  long visits() {
    long visits = own.visits();
    for (Segment segment : shared) {
      visits += segment.storage().visits();
    }
    return visits;
  }

  /**
   * Adds to {@code found} the events this log shows that hold every one of {@code words} ({@link EventStorage#search}),
   * as this session holds them.
   */
  void search(List<SearchTerm> words, List<Event> found) {
    for (Segment segment : shared) {
      segment.storage().search(words, segment.fromSeq(), segment.toSeq(), sessionId, found);
    }
    EventStorage current = own;
    current.search(words, current.firstSeq(), Long.MAX_VALUE, sessionId, found);
  }

  /** The page {@code query} selects, built by {@link EventPaging} from the matching events in fetch order. */
  EventPage read(EventQuery query) {
    long to = query.before().isPresent() ? query.before().getAsLong() - 1 : Long.MAX_VALUE;
    long wanted = EventPaging.fetchLimit(query).orElse(Long.MAX_VALUE);
    List<Event> fetched = new ArrayList<>();
    collect(query.after(), to, EventPaging.fetchesNewestFirst(query), query, fetched, wanted);
    return EventPaging.page(fetched, query);
  }

  /**
   * Adds the events with {@code afterSeq < seq <= toSeq} that {@code query} matches, in order, until there are
   * {@code wanted}.
   */
  private void collect(long afterSeq, long toSeq, boolean newestFirst, EventQuery query, List<Event> fetched,
      long wanted) {
    List<Segment> segments = new ArrayList<>(shared);
    segments.add(new Segment(own, own.firstSeq(), own.lastSeq()));
    for (int i = 0; i < segments.size(); i++) {
      Segment segment = segments.get(newestFirst ? segments.size() - 1 - i : i);
      segment.storage().collect(Math.max(afterSeq, segment.fromSeq() - 1), Math.min(toSeq, segment.toSeq()), newestFirst,
          query, sessionId, fetched, wanted);
    }
  }
}
