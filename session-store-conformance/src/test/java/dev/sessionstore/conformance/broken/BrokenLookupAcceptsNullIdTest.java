package dev.sessionstore.conformance.broken;

import dev.sessionstore.Run;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/** A store whose run lookup answers "not found" for a null or blank id instead of rejecting it. */
class BrokenLookupAcceptsNullIdTest extends BrokenStoreTest {

  BrokenLookupAcceptsNullIdTest() {
    super(SessionStoreConformance.BadInput.class, "nullIdsAreRejected", "runs().find(sessionId, runId) with a null id: the error");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withRuns(runs -> new ForwardingRuns(runs) {
      @Override
      public Optional<Run> find(String sessionId, String runId) {
        if (runId == null || runId.isBlank()) {
          return Optional.empty();
        }
        return delegate.find(sessionId, runId);
      }
    });
  }
}
