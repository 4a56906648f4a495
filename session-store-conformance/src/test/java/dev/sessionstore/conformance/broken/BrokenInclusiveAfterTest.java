package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;

/** A store that treats {@code after} as inclusive ({@code seq >= after}). */
class BrokenInclusiveAfterTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
      @Override
      public EventPage read(String sessionId, EventQuery query) {
        return delegate.read(sessionId, query.after() > 0 ? query.after(query.after() - 1) : query);
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
    return "afterIsExclusive";
  }

  @Override
  protected String failureMentions() {
    return "seqs read by EventQuery[after=3";
  }
}
