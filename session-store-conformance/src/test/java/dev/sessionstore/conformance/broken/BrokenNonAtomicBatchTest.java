package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** A store that appends a batch member by member, so a late bad member leaves the earlier ones stored. */
class BrokenNonAtomicBatchTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
      @Override
      public List<Event> appendAll(String sessionId, List<NewEvent> events) {
        List<Event> stored = new ArrayList<>();
        for (NewEvent event : events) {
          stored.add(delegate.append(sessionId, event));
        }
        return stored;
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
    return "batchWithABadLastMemberIsAllOrNothing";
  }

  @Override
  protected String failureMentions() {
    return "latestSeq after the failed batch";
  }
}
