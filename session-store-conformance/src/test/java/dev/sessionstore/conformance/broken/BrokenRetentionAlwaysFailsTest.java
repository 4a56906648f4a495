package dev.sessionstore.conformance.broken;

import dev.sessionstore.Capability;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.Set;

/**
 * A store declaring {@code RETENTION} (and neither summaries nor forks) whose retention fails on every call: the
 * retention group ran only when summaries and forks were declared too, so this store passed it. Now the idle rule and
 * its dry run are checked with the required parts alone.
 */
class BrokenRetentionAlwaysFailsTest extends BrokenStoreTest {

  BrokenRetentionAlwaysFailsTest() {
    super(new Caught(SessionStoreConformance.Retention.class, "idleSessionsAreDeleted", "retention is broken"),
        new Caught(SessionStoreConformance.Retention.class, "aDryRunOfTheIdleRuleWritesNothing",
            "retention is broken"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore retaining = InMemorySessionStore.builder().clock(clock).capabilities(Set.of(Capability.RETENTION))
        .build();
    return ForwardingStore.of(retaining).withRetention(retention -> new ForwardingRetention(retention) {
      @Override
      public RetentionReport apply(RetentionPolicy policy) {
        throw new StoreFailureException("retention is broken", null);
      }

      @Override
      public RetentionReport dryRun(RetentionPolicy policy) {
        throw new StoreFailureException("retention is broken", null);
      }
    });
  }
}
