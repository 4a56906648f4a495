package dev.sessionstore.chat.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The last known window of each of the most recently used conversations, so that a read costs one look at the
 * log's last seq and a write none. An entry is a hint, never the truth: a read uses it only when the log still ends
 * at the entry's last seq, and a write commits with it as the expected last seq, so a conversation another process
 * or instance wrote is read again.
 *
 * <h2>Stamps</h2>
 * Entries arrive out of order from concurrent reads and writes. Each offer carries a stamp ({@link #stamp()}) taken
 * before the store operation that produced the window began, so a later stamp names a view at least as new; an offer
 * older than the entry in place is ignored. A change that may leave the log at the same last seq with other content
 * (a cut, a delete) is recorded by {@link #forget} with a stamp taken after it committed, so no view read before it
 * can come back. Entries dropped to stay within the capacity raise a floor below which offers are ignored too.
 *
 * <p>Thread-safe: every method holds the cache's lock for a few map operations.
 *
 * @param <M> the framework's message type
 */
public final class WindowCache<M> {

  private final AtomicLong clock = new AtomicLong();
  private final Map<String, Entry<M>> entries;
  private long floor;

  /**
   * A cache of the windows of at most {@code capacity} conversations, the least recently used dropped first; 0 keeps
   * none.
   */
  public WindowCache(int capacity) {
    this.entries = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Entry<M>> eldest) {
        if (size() > capacity) {
          floor = Math.max(floor, eldest.getValue().stamp());
          return true;
        }
        return false;
      }
    };
  }

  /** A stamp later than every stamp taken before. */
  public long stamp() {
    return clock.incrementAndGet();
  }

  /** The conversation's last known window, if any; the log may have moved on since. */
  public synchronized Optional<StoredWindow<M>> get(String conversationId) {
    Entry<M> entry = entries.get(conversationId);
    return entry == null ? Optional.empty() : Optional.ofNullable(entry.window());
  }

  /**
   * Keeps {@code window} as the conversation's, unless the entry in place (or one dropped since) has a later stamp.
   *
   * @param stamp a stamp taken before the read or write that produced {@code window} began
   */
  public synchronized void offer(String conversationId, StoredWindow<M> window, long stamp) {
    Entry<M> entry = entries.get(conversationId);
    if (stamp > floor && (entry == null || entry.stamp() < stamp)) {
      entries.put(conversationId, new Entry<>(window, stamp));
    }
  }

  /** Forgets the conversation's window, after a change that may have left its log at the same last seq. */
  public synchronized void forget(String conversationId) {
    entries.put(conversationId, new Entry<>(null, stamp()));
  }

  private record Entry<M>(StoredWindow<M> window, long stamp) {
  }
}
