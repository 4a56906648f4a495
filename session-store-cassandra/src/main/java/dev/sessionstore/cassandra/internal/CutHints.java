package dev.sessionstore.cassandra.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where this store instance last saw each session's log start: the seq through which retention had cut it, as a
 * read of the partition showed it. A hint, never the truth: a page of the log starts its slice there, and the same
 * read checks it against the partition's {@code cut_seq} (a static column, returned with every row), reading again
 * when it was too high (a truncation below the cut, or a deletion, lowered it since). One that is too low (another
 * instance cut since) costs that read a walk over the rows cut since, once: it then learns the new cut. Bounded: the
 * least recently used hints go first.
 */
final class CutHints {

  /** Sessions whose hint is kept. */
  private static final int CAPACITY = 10_000;

  private final Map<String, Long> hints = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > CAPACITY;
    }
  };

  /** The seq the session's log was last seen cut through; -1 when this instance has not seen it. */
  synchronized long get(String sessionId) {
    return hints.getOrDefault(sessionId, -1L);
  }

  /** Remembers that the session's log was seen cut through {@code cutSeq}; returns it. */
  synchronized long put(String sessionId, long cutSeq) {
    hints.put(sessionId, cutSeq);
    return cutSeq;
  }

  /** Forgets the session's hint (this instance cut its log): the next page reads the header first. */
  synchronized void forget(String sessionId) {
    hints.remove(sessionId);
  }
}
