package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A store that computes the audit cutoff as now minus the age without minding the range of an instant: an age
 * reaching back before the beginning of time fails instead of deleting nothing.
 */
class BrokenAuditAgeOverflowsTest extends BrokenStoreTest {

  BrokenAuditAgeOverflowsTest() {
    super(SessionStoreConformance.ModelCalls.class, "anAgeBeyondTimeDeletesNothing", "DateTimeException");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withModelCalls(audit -> new ForwardingModelCallAudit(audit) {
      @Override
      public int deleteOlderThan(String sessionId, Duration age) {
        Instant cutoff = clock.instant().minus(age);
        return delegate.deleteOlderThan(sessionId, Duration.between(cutoff, clock.instant()));
      }
    });
  }
}
