package dev.sessionstore.conformance.broken;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose idle-session rule reads only the session's {@code updatedAt}, which appends do not change: a session
 * written to a moment ago counts as idle.
 */
class BrokenRetentionIdleIgnoresAppendsTest extends BrokenStoreTest {

  BrokenRetentionIdleIgnoresAppendsTest() {
    super(SessionStoreConformance.Retention.class, "anAppendKeepsASessionAlive", "sessions deleted");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withRetention(retention -> new ForwardingRetention(retention) {
      @Override
      public RetentionReport apply(RetentionPolicy policy) {
        long deleted = 0;
        if (policy.idleSessionAge().isPresent()) {
          for (Session session : correct.sessions().list(SessionQuery.all()).items()) {
            if (session.updatedAt().isBefore(clock.instant().minus(policy.idleSessionAge().get()))
                && policy.scopes(session.status(), session.tenant()) && correct.sessions().delete(session.id())) {
              deleted++;
            }
          }
        }
        RetentionReport rest = delegate.apply(policy);
        return new RetentionReport(false, rest.sessions() + deleted, rest.events(), rest.modelCalls());
      }
    });
  }
}
