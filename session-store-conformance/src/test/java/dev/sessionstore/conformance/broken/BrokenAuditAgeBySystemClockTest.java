package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A store that measures audit age against the system clock (like a database's {@code now()}) instead of the store
 * clock, so age-based deletion removes the wrong rows whenever the two disagree.
 */
class BrokenAuditAgeBySystemClockTest extends BrokenStoreTest {

  BrokenAuditAgeBySystemClockTest() {
    super(SessionStoreConformance.ModelCalls.class, "deleteOlderThanRemovesOnlyOldRows", "rows older than 15 minutes");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withModelCalls(audit -> new ForwardingModelCallAudit(audit) {
      @Override
      public int deleteOlderThan(String sessionId, Duration age) {
        Duration skew = Duration.between(Instant.now(), clock.instant());
        return delegate.deleteOlderThan(sessionId, age.plus(skew));
      }
    });
  }
}
