package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;

/** A store whose single-event append ignores the expected last seq and appends anyway. */
class BrokenExpectedSeqIgnoredTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
      @Override
      public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
        return delegate.append(sessionId, event);
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
    return SessionStoreConformance.EventAppends.class;
  }

  @Override
  protected String failingTest() {
    return "expectedSeqMismatchIsAConflict";
  }

  @Override
  protected String failureMentions() {
    return "error for expected seq 0 with the log at 3";
  }
}
