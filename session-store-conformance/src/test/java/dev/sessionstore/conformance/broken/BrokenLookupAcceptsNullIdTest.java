package dev.sessionstore.conformance.broken;

import dev.sessionstore.Run;
import dev.sessionstore.Runs;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.Optional;

/** A store whose run lookup answers "not found" for a null or blank id instead of rejecting it. */
class BrokenLookupAcceptsNullIdTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    Runs broken = new ForwardingRuns(real.runs()) {
      @Override
      public Optional<Run> find(String runId) {
        if (runId == null || runId.isBlank()) {
          return Optional.empty();
        }
        return delegate.find(runId);
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
    return SessionStoreConformance.BadInput.class;
  }

  @Override
  protected String failingTest() {
    return "nullIdsAreRejected";
  }

  @Override
  protected String failureMentions() {
    return "runs().find(runId) with a null id: the error";
  }
}
