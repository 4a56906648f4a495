package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose forks are truncated with their parent: a cut of the parent's log cuts each fork at the same seq. */
class BrokenForkTruncatedWithParentTest extends BrokenStoreTest {

  BrokenForkTruncatedWithParentTest() {
    super(SessionStoreConformance.Forks.class, "truncatingTheParentAboveTheForkPointLeavesTheFork",
        "fork log after truncating the parent above the fork point");
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
            forks[0].forksOf(sessionId).forEach(fork -> delegate.truncate(fork, fromSeq));
            return removed;
          }
        });
  }
}
