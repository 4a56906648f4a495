package dev.sessionstore.conformance.broken;

import dev.sessionstore.NewSummary;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Json;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose events-per-session rule cuts into the chapter no summary covers: before cutting, it treats the whole
 * log as covered (it summarizes every session up to its last seq), so the latest events go too.
 */
class BrokenRetentionCutsUncoveredChapterTest extends BrokenStoreTest {

  BrokenRetentionCutsUncoveredChapterTest() {
    super(new Caught(SessionStoreConformance.Retention.class, "theUncoveredChapterStays",
            "seqs left after the latest summary (4)"),
        new Caught(SessionStoreConformance.Retention.class, "revivalIsUnchangedByACut", "revival after the cut"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withRetention(retention -> new ForwardingRetention(retention) {
      @Override
      public RetentionReport apply(RetentionPolicy policy) {
        if (policy.maxEventsPerSession().isPresent()) {
          for (Session session : correct.sessions().list(SessionQuery.all()).items()) {
            long coveredTo = correct.summaries().latest(session.id()).map(summary -> summary.toSeq()).orElse(0L);
            if (coveredTo > 0 && session.lastSeq() > coveredTo) {
              correct.summaries().put(session.id(),
                  NewSummary.of(coveredTo + 1, session.lastSeq(), Json.of("{}")));
            }
          }
        }
        return delegate.apply(policy);
      }
    });
  }
}
