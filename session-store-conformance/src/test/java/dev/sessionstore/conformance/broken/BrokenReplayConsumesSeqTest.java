package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose single-event replay consumes a seq, so the next new event does not get previous + 1. */
class BrokenReplayConsumesSeqTest extends BrokenStoreTest {

  BrokenReplayConsumesSeqTest() {
    super(SessionStoreConformance.EventAppends.class, "replayDoesNotConsumeASeq",
        "seq of the first new event after replays");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public Event append(String sessionId, NewEvent event) {
        if (delegate.find(sessionId, event.id()).isPresent()) {
          // the bug: the replay takes the next seq as if it were a new event
          delegate.append(sessionId, NewEvent.of("seq-consumed-by-replay"));
        }
        return delegate.append(sessionId, event);
      }
    });
  }
}
