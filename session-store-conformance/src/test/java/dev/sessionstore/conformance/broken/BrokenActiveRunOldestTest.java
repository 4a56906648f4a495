package dev.sessionstore.conformance.broken;

import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/** A store whose active run is the first running run created, not the most recently updated one. */
class BrokenActiveRunOldestTest extends BrokenStoreTest {

  BrokenActiveRunOldestTest() {
    super(SessionStoreConformance.Runs.class, "activeRunIsTheMostRecentlyUpdated", "active run of two running");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withRuns(runs -> new ForwardingRuns(runs) {
      @Override
      public Optional<Run> active(String sessionId) {
        return delegate.list(sessionId, RunStatus.RUNNING).stream().findFirst();
      }
    });
  }
}
