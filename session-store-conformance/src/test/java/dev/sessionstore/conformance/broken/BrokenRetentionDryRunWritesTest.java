package dev.sessionstore.conformance.broken;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose dry run applies the policy and only labels its report as dry. */
class BrokenRetentionDryRunWritesTest extends BrokenStoreTest {

  BrokenRetentionDryRunWritesTest() {
    super(SessionStoreConformance.Retention.class, "aDryRunWritesNothing", "after the dry run");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withRetention(retention -> new ForwardingRetention(retention) {
      @Override
      public RetentionReport dryRun(RetentionPolicy policy) {
        RetentionReport applied = delegate.apply(policy);
        return new RetentionReport(true, applied.sessions(), applied.events(), applied.modelCalls());
      }
    });
  }
}
