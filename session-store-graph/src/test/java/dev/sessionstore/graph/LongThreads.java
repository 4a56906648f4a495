package dev.sessionstore.graph;

import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Fills threads with many checkpoints fast, for the cost tests of the core and of the runtimes' savers: the same
 * checkpoint events a put writes, appended in batches of 1,000 (the per-checkpoint chapters left out: no graph step
 * reads them).
 */
public final class LongThreads {

  private LongThreads() {
  }

  /** Appends {@code checkpoints}, oldest first, to thread {@code threadId} of {@code store}. */
  public static void append(SessionStore store, String threadId, List<GraphCheckpoint> checkpoints) {
    List<NewEvent> batch = new ArrayList<>();
    for (GraphCheckpoint checkpoint : checkpoints) {
      batch.add(CheckpointEvents.event(checkpoint));
      if (batch.size() == 1_000) {
        store.events().appendAll(threadId, batch);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      store.events().appendAll(threadId, batch);
    }
  }
}
