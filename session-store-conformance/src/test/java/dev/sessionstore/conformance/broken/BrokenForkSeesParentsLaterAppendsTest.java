package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose forks see the parent's later appends, as when a fork reads the parent's log without stopping at the
 * fork point: whatever is appended to the parent also shows in its forks.
 */
class BrokenForkSeesParentsLaterAppendsTest extends BrokenStoreTest {

  BrokenForkSeesParentsLaterAppendsTest() {
    super(SessionStoreConformance.Forks.class, "appendsToTheParentDoNotReachTheFork",
        "fork log after appending to the parent");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    ForkTracker[] forks = new ForkTracker[1];
    return ForwardingStore.of(correctStore(clock))
        .withSessions(sessions -> forks[0] = new ForkTracker(sessions))
        .withEvents(log -> new ForwardingEventLog(log) {
          @Override
          public Event append(String sessionId, NewEvent event) {
            Event appended = delegate.append(sessionId, event);
            forks[0].forksOf(sessionId).forEach(fork -> delegate.append(fork, event));
            return appended;
          }
        });
  }
}
