package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ReadDirection;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A store that returns a tail read ({@code last(n)}) newest-first instead of oldest-first. */
class BrokenTailNewestFirstTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
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
    };
    return new ForwardingStore(real) {
      @Override
      public EventLog events() {
        return broken;
      }
    };
  }

  @Override
  protected Class<?> group() {
    return SessionStoreConformance.EventReads.class;
  }

  @Override
  protected String failingTest() {
    return "lastReturnsTheTailOldestFirst";
  }

  @Override
  protected String failureMentions() {
    return "direction=TAIL";
  }
}
