package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.spi.ForkRule;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A store whose fork reads its shared part from the parent's current log by seq: once the parent is truncated below
 * the fork point and appended to again, the fork shows the parent's new events at those seqs.
 */
class BrokenForkReadsParentBySeqTest extends BrokenStoreTest {

  BrokenForkReadsParentBySeqTest() {
    super(SessionStoreConformance.Forks.class, "truncatingTheParentBelowTheForkPointLeavesTheFork",
        "fork log after truncating the parent below the fork point");
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
            if (origin.isEmpty()) {
              return page;
            }
            return new EventPage(page.items().stream().map(event -> event.seq() > origin.get().seq() ? event
                : atSeq(origin.get().sessionId(), event.seq()).map(current -> ForkRule.copy(current, sessionId))
                    .orElse(event)).toList(), page.nextCursor());
          }

          private Optional<Event> atSeq(String parent, long seq) {
            List<Event> items = delegate.read(parent, EventQuery.all().after(seq - 1).first(1)).items();
            return items.stream().filter(event -> event.seq() == seq).findFirst();
          }
        });
  }
}
