package dev.sessionstore.graph;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What one saver instance knows of its threads: for each thread it recently read or wrote, the checkpoint its next
 * put builds on. Graph runtimes hand a saver's {@code put} no parent, only the new checkpoint; a saver remembers the
 * head its {@code get} returned (the checkpoint a run resumes from) and its own last put, and passes it to
 * {@link GraphThreads#put}, so a put on top of a checkpoint another instance moved past fails.
 *
 * <p>Not a source of truth: the store is. A head only makes a put conditional; a thread this instance has not seen
 * (or has forgotten, past {@code capacity} threads, least recently used first) builds on the store's latest, read
 * when the put comes. Two runs of one thread through one saver instance at once share its head, so only instances
 * are told apart: give concurrent runs of one thread separate savers. Thread-safe.
 */
public final class ThreadHeads {

  private final Map<String, ThreadHead> heads;

  /**
   * Remembers the heads of at most {@code capacity} threads.
   *
   * @throws IllegalArgumentException if {@code capacity} is below 1
   */
  public ThreadHeads(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.heads = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, ThreadHead> eldest) {
        return size() > capacity;
      }
    };
  }

  /** Remembers that the next put to {@code threadId} builds on {@code head}. */
  public synchronized void remember(String threadId, ThreadHead head) {
    heads.put(threadId, head);
  }

  /** The head the next put to {@code threadId} builds on, or empty when this instance has none. */
  public synchronized Optional<ThreadHead> of(String threadId) {
    return Optional.ofNullable(heads.get(threadId));
  }

  /** Forgets {@code threadId}'s head. */
  public synchronized void forget(String threadId) {
    heads.remove(threadId);
  }
}
