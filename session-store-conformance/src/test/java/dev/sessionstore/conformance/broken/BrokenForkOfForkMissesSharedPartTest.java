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
 * A store whose fork of a fork shares only its parent's own events, not those the parent shares with its own parent:
 * lineage that is not carried down a second level.
 */
class BrokenForkOfForkMissesSharedPartTest extends BrokenStoreTest {

  BrokenForkOfForkMissesSharedPartTest() {
    super(SessionStoreConformance.Forks.class, "aForkOfAForkOfAFork", "events of the fork of a fork of a fork");
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
            Optional<ForkOrigin> parentOrigin = forks[0].origin(sessionId)
                .flatMap(origin -> forks[0].origin(origin.sessionId()));
            if (parentOrigin.isEmpty()) {
              return page;
            }
            return new EventPage(page.items().stream().filter(event -> event.seq() > parentOrigin.get().seq())
                .toList(), page.nextCursor());
          }
        });
  }
}
