package dev.sessionstore.conformance.broken;

import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.Runs;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.Optional;

/** A store whose active run is the first running run created, not the most recently updated one. */
class BrokenActiveRunOldestTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    Runs broken = new ForwardingRuns(real.runs()) {
      @Override
      public Optional<Run> active(String sessionId) {
        return delegate.list(sessionId, RunStatus.RUNNING).stream().findFirst();
      }
    };
    return new ForwardingStore(real) {
      @Override
      public Runs runs() {
        return broken;
      }
    };
  }

  @Override
  protected Class<?> group() {
    return SessionStoreConformance.Runs.class;
  }

  @Override
  protected String failingTest() {
    return "activeRunIsTheMostRecentlyUpdated";
  }

  @Override
  protected String failureMentions() {
    return "active run of two running";
  }
}
