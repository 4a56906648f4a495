package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventLog;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;

/**
 * A store whose truncation is exclusive ({@code seq > fromSeq}): the event the caller wanted to edit away stays.
 */
class BrokenTruncateKeepsTheCutEventTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
      @Override
      public int truncate(String sessionId, long fromSeq) {
        return delegate.truncate(sessionId, fromSeq + 1);
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
    return SessionStoreConformance.Truncation.class;
  }

  @Override
  protected String failingTest() {
    return "truncateRemovesTheCutEventAndEverythingAfter";
  }

  @Override
  protected String failureMentions() {
    return "events removed by truncating 7 events at seq 5";
  }
}
