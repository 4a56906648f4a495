package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose {@code since} filter is exclusive: an event at exactly that instant is left out. */
class BrokenSinceExclusiveTest extends BrokenStoreTest {

  BrokenSinceExclusiveTest() {
    super(SessionStoreConformance.EventReads.class, "sinceIsInclusive", "since=2030-01-01T00:00:05Z");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public EventPage read(String sessionId, EventQuery query) {
        return delegate.read(sessionId, query.since() == null ? query : query.since(query.since().plusNanos(1000)));
      }
    });
  }
}
