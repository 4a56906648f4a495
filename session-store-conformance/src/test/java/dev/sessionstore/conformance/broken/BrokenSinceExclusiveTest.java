package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;

/** A store whose {@code since} filter is exclusive: an event at exactly that instant is left out. */
class BrokenSinceExclusiveTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
      @Override
      public EventPage read(String sessionId, EventQuery query) {
        return delegate.read(sessionId, query.since() == null ? query : query.since(query.since().plusNanos(1000)));
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
    return "sinceIsInclusive";
  }

  @Override
  protected String failureMentions() {
    return "since=2030-01-01T00:00:05Z";
  }
}
