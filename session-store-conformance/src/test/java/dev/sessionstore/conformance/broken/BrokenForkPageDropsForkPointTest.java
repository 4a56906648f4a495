package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose paged reads of a fork lose the event at the fork point, where the shared part ends and the fork's
 * own begins: an off-by-one at the boundary that reads of the whole log do not show.
 */
class BrokenForkPageDropsForkPointTest extends BrokenStoreTest {

  BrokenForkPageDropsForkPointTest() {
    super(SessionStoreConformance.Forks.class, "pagesOfAForkAcrossTheForkPoint", "page of the fork");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    ForkTracker[] forks = new ForkTracker[1];
    return ForwardingStore.of(correctStore(clock))
        .withSessions(sessions -> forks[0] = new ForkTracker(sessions))
        .withEvents(log -> new ForwardingEventLog(log) {
          @Override
          public EventPage read(String sessionId, EventQuery query) {
            EventPage page = delegate.read(sessionId, query);
            Optional<ForkOrigin> origin = forks[0].origin(sessionId);
            if (origin.isEmpty() || query.limit().isEmpty()) {
              return page;
            }
            return new EventPage(page.items().stream().filter(event -> event.seq() != origin.get().seq()).toList(),
                page.nextCursor());
          }
        });
  }
}
