package dev.sessionstore.conformance.broken;

import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A store that measures audit age against the system clock (like a database's {@code now()}) instead of the store
 * clock, so age-based deletion removes the wrong rows whenever the two disagree.
 */
class BrokenAuditAgeBySystemClockTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    ModelCallAudit broken = new ForwardingModelCallAudit(real.modelCalls()) {
      @Override
      public int deleteOlderThan(String sessionId, Duration age) {
        Duration skew = Duration.between(Instant.now(), clock.instant());
        return delegate.deleteOlderThan(sessionId, age.plus(skew));
      }
    };
    return new ForwardingStore(real) {
      @Override
      public ModelCallAudit modelCalls() {
        return broken;
      }
    };
  }

  @Override
  protected Class<?> group() {
    return SessionStoreConformance.ModelCalls.class;
  }

  @Override
  protected String failingTest() {
    return "deleteOlderThanRemovesOnlyOldRows";
  }

  @Override
  protected String failureMentions() {
    return "rows older than 15 minutes";
  }
}
