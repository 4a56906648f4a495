package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.time.Duration;

/** A store whose waiting read never waits: it returns the plain read, empty when nothing matches yet. */
class BrokenWaitingReadReturnsAtOnceTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
      @Override
      public EventPage await(String sessionId, EventQuery query, Duration timeout) {
        return delegate.read(sessionId, query);
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
    return SessionStoreConformance.WaitingReads.class;
  }

  @Override
  protected String failingTest() {
    return "wakesOnAnAppendFromAnotherThread";
  }

  @Override
  protected String failureMentions() {
    return "events returned by the waiting read";
  }
}
