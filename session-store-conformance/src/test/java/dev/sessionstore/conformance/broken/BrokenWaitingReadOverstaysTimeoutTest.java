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

/** A store whose waiting read does not honour its timeout: it waits four times as long, plus a second. */
class BrokenWaitingReadOverstaysTimeoutTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
      @Override
      public EventPage await(String sessionId, EventQuery query, Duration timeout) {
        if (timeout.isNegative()) {
          return delegate.await(sessionId, query, timeout);
        }
        return delegate.await(sessionId, query, timeout.multipliedBy(4).plusSeconds(1));
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
    return "timesOutWithAnEmptyPage";
  }

  @Override
  protected String failureMentions() {
    return "milliseconds waited with a timeout of PT0.4S";
  }
}
