package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.NewEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory baseline: a {@code ConcurrentHashMap} of session id to {@code ArrayList} of stored events. An append
 * numbers the event under the list's lock; a fork copies a prefix of the list. Nothing else: no idempotent replay
 * (no id index), no expected-seq check, no copies handed out, no wake-ups.
 */
final class MapLog {

  private final ConcurrentHashMap<String, List<Stored>> sessions = new ConcurrentHashMap<>();

  /** Appends {@code event} with the next seq of the session, creating the session if unknown. */
  Stored append(String sessionId, NewEvent event) {
    List<Stored> log = sessions.computeIfAbsent(sessionId, id -> new ArrayList<>());
    synchronized (log) {
      Stored stored = new Stored(log.size() + 1L, event);
      log.add(stored);
      return stored;
    }
  }

  /** Copies the first {@code atSeq} events of {@code parentId} to a new session {@code forkId}. */
  void fork(String parentId, int atSeq, String forkId) {
    List<Stored> parent = sessions.get(parentId);
    List<Stored> copy;
    synchronized (parent) {
      copy = new ArrayList<>(parent.subList(0, atSeq));
    }
    sessions.put(forkId, copy);
  }

  void delete(String sessionId) {
    sessions.remove(sessionId);
  }

  /** An event as the baseline stores it: its seq and the event as given. */
  record Stored(long seq, NewEvent event) {
  }
}
