package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventLog;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;

/** A store whose latestSeq is off by one for sessions it does not know (-1 instead of 0). */
class BrokenLatestSeqOfUnknownSessionTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
      @Override
      public long latestSeq(String sessionId) {
        long latest = delegate.latestSeq(sessionId);
        return real.sessions().find(sessionId).isPresent() ? latest : latest - 1;
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
    return "latestSeqIsZeroForUnknownAndEmptySessions";
  }

  @Override
  protected String failureMentions() {
    return "latestSeq of an unknown session";
  }
}
