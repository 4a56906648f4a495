package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that keeps the direct forks of a truncated session whole but not the forks of those forks, which lose the
 * events they shared with it from the cut on.
 */
class BrokenGrandchildTruncatedWithAncestorTest extends BrokenStoreTest {

  BrokenGrandchildTruncatedWithAncestorTest() {
    super(SessionStoreConformance.Forks.class, "changingAnAncestorLeavesAForkOfAFork",
        "fork of a fork after truncating its grandparent");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    ForkTracker[] forks = new ForkTracker[1];
    return ForwardingStore.of(correctStore(clock))
        .withSessions(sessions -> forks[0] = new ForkTracker(sessions))
        .withEvents(log -> new ForwardingEventLog(log) {
          @Override
          public int truncate(String sessionId, long fromSeq) {
            int removed = delegate.truncate(sessionId, fromSeq);
            for (String fork : forks[0].forksOf(sessionId)) {
              forks[0].forksOf(fork).forEach(grandchild -> delegate.truncate(grandchild, fromSeq));
            }
            return removed;
          }
        });
  }
}
