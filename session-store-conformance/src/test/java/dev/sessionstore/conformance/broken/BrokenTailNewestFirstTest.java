package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ReadDirection;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A store that returns a tail read ({@code last(n)}) newest-first instead of oldest-first. */
class BrokenTailNewestFirstTest extends BrokenStoreTest {

  BrokenTailNewestFirstTest() {
    super(SessionStoreConformance.EventReads.class, "lastReturnsTheTailOldestFirst", "direction=TAIL");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public EventPage read(String sessionId, EventQuery query) {
        EventPage page = delegate.read(sessionId, query);
        if (query.direction() != ReadDirection.TAIL) {
          return page;
        }
        List<Event> reversed = new ArrayList<>(page.items());
        Collections.reverse(reversed);
        return new EventPage(reversed, page.nextCursor());
      }
    });
  }
}
