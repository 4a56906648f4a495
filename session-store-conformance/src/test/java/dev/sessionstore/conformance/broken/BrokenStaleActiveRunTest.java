package dev.sessionstore.conformance.broken;

import dev.sessionstore.Run;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A store that caches each session's active run and never invalidates it, so readers see a stale run. */
class BrokenStaleActiveRunTest extends BrokenStoreTest {

  BrokenStaleActiveRunTest() {
    super(SessionStoreConformance.Runs.class, "activeRunIsVisibleToAnotherThreadRightAfterSave",
        "active run read by another thread right after saving run-1");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withRuns(runs -> new ForwardingRuns(runs) {
      private final Map<String, Run> cache = new ConcurrentHashMap<>();

      @Override
      public Optional<Run> active(String sessionId) {
        Run cached = cache.get(sessionId);
        if (cached != null) {
          return Optional.of(cached);
        }
        Optional<Run> active = delegate.active(sessionId);
        active.ifPresent(run -> cache.put(sessionId, run));
        return active;
      }
    });
  }
}
