package dev.sessionstore.cassandra.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The in-process queue of writes per session: writes of one store instance to one session run one at a time, in
 * arrival order (a fair lock), so that threads of one process never race each other's conditional writes on the
 * partition (Paxos degrades badly under contention); writers of other processes are met by the condition and retried.
 * Locks exist only while some thread holds or waits for them.
 */
final class SessionQueue {

  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

  /** Runs {@code write} as the session's only writer of this instance. */
  <T> T run(String sessionId, Supplier<T> write) {
    Entry entry = entries.compute(sessionId, (id, current) -> {
      Entry held = current == null ? new Entry() : current;
      held.users++;
      return held;
    });
    entry.lock.lock();
    try {
      return write.get();
    } finally {
      entry.lock.unlock();
      entries.compute(sessionId, (id, current) -> --current.users == 0 ? null : current);
    }
  }

  /** A session's lock and how many threads hold or wait for it (guarded by the map's compute). */
  private static final class Entry {
    private final ReentrantLock lock = new ReentrantLock(true);
    private int users;
  }
}
