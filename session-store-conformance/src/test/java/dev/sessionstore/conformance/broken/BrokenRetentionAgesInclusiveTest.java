package dev.sessionstore.conformance.broken;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;

/**
 * A store whose retention removes what is exactly as old as a policy's ages ({@code <=} where {@code <} belongs):
 * a session last active exactly the idle age ago, and an audit row recorded exactly the model-call age ago.
 */
class BrokenRetentionAgesInclusiveTest extends BrokenStoreTest {

  private static final Duration MICROSECOND = Duration.ofNanos(1_000);

  BrokenRetentionAgesInclusiveTest() {
    super(new Caught(SessionStoreConformance.Retention.class, "theIdleAgeIsExact", "session saved exactly"),
        new Caught(SessionStoreConformance.Retention.class, "theModelCallAgeIsExact",
            "turn 2 was recorded exactly"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withRetention(retention -> new ForwardingRetention(retention) {
      @Override
      public RetentionReport apply(RetentionPolicy policy) {
        return delegate.apply(inclusive(policy));
      }

      @Override
      public RetentionReport dryRun(RetentionPolicy policy) {
        return delegate.dryRun(inclusive(policy));
      }
    });
  }

  /** {@code policy} with each age a microsecond shorter: what is exactly that old counts as older. */
  private static RetentionPolicy inclusive(RetentionPolicy policy) {
    return new RetentionPolicy(policy.idleSessionAge().map(BrokenRetentionAgesInclusiveTest::shorter),
        policy.idleStatuses(), policy.idleTenant(), policy.maxEventsPerSession(),
        policy.modelCallAge().map(BrokenRetentionAgesInclusiveTest::shorter));
  }

  private static Duration shorter(Duration age) {
    return age.isZero() ? age : age.minus(MICROSECOND);
  }
}
