package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.spi.ForkRule;
import java.time.Duration;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose waiting reads on a fork wait on the parent's log, as when a fork's wake-ups are keyed by the session
 * it shares events with: the parent's later appends end the wait and come back as the fork's.
 */
class BrokenForkWaiterWokenByParentTest extends BrokenStoreTest {

  BrokenForkWaiterWokenByParentTest() {
    super(SessionStoreConformance.WaitingReads.class, "aForksWaiterWakesOnTheForksAppendsOnly",
        "a read waiting on the fork returned after appends to the parent");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    ForkTracker[] forks = new ForkTracker[1];
    return ForwardingStore.of(correctStore(clock))
        .withSessions(sessions -> forks[0] = new ForkTracker(sessions))
        .withEvents(log -> new ForwardingEventLog(log) {
          @Override
          public EventPage await(String sessionId, EventQuery query, Duration timeout) {
            Optional<ForkOrigin> origin = forks[0].origin(sessionId);
            if (origin.isEmpty()) {
              return delegate.await(sessionId, query, timeout);
            }
            EventPage page = delegate.await(origin.get().sessionId(), query, timeout);
            return new EventPage(page.items().stream().map(event -> ForkRule.copy(event, sessionId)).toList(),
                page.nextCursor());
          }
        });
  }
}
