package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;

/** A store whose single-event replay consumes a seq, so the next new event does not get previous + 1. */
class BrokenReplayConsumesSeqTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    EventLog broken = new ForwardingEventLog(real.events()) {
      @Override
      public Event append(String sessionId, NewEvent event) {
        if (delegate.find(sessionId, event.id()).isPresent()) {
          // the bug: the replay takes the next seq as if it were a new event
          delegate.append(sessionId, NewEvent.of("seq-consumed-by-replay"));
        }
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
    return "replayDoesNotConsumeASeq";
  }

  @Override
  protected String failureMentions() {
    return "seq of the first new event after replays";
  }
}
