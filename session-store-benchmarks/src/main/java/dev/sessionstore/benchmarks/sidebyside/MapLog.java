package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory baseline: a {@code ConcurrentHashMap} of session id to a log, an {@code ArrayList} of {@link Event}s
 * and a {@code HashMap} from event id to event, guarded by the log's monitor. An append does what the contract asks
 * of every store, the plainest way: under the lock, an id already stored returns the stored event (idempotency);
 * otherwise the next seq is assigned, the {@link Event} record is built and stamped by the clock, and the event is
 * added to the list and the id index. Nothing else: no expected-seq check, no check that a replay has the same
 * content, no argument checks beyond the record's own, no wake-ups of waiting readers.
 */
final class MapLog {

  private final ConcurrentHashMap<String, Log> sessions = new ConcurrentHashMap<>();
  private final Clock clock = Clock.systemUTC();

  /** Appends {@code event} with the next seq of the session, creating the session if unknown; a stored id returns the stored event. */
  Event append(String sessionId, NewEvent event) {
    Log log = sessions.computeIfAbsent(sessionId, id -> new Log(new ArrayList<>(), new HashMap<>()));
    synchronized (log) {
      Event stored = log.byId.get(event.id());
      if (stored != null) {
        return stored;
      }
      stored = new Event(sessionId, log.events.size() + 1L, event.id(), event.type(), event.runId(),
          event.agentId(), event.parentId(), event.payload(),
          event.timestamp() == null ? clock.instant() : event.timestamp());
      log.events.add(stored);
      log.byId.put(stored.id(), stored);
      return stored;
    }
  }

  /** Copies the first {@code atSeq} events of {@code parentId}, and their id index, to a new session {@code forkId}. */
  void fork(String parentId, int atSeq, String forkId) {
    Log parent = sessions.get(parentId);
    Log copy;
    synchronized (parent) {
      List<Event> prefix = new ArrayList<>(parent.events.subList(0, atSeq));
      Map<String, Event> byId = new HashMap<>();
      for (Event event : prefix) {
        byId.put(event.id(), event);
      }
      copy = new Log(prefix, byId);
    }
    sessions.put(forkId, copy);
  }

  void delete(String sessionId) {
    sessions.remove(sessionId);
  }

  /** One session's events in seq order and by id; guarded by its own monitor. */
  private record Log(List<Event> events, Map<String, Event> byId) {
  }
}
