package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose single-event append ignores the expected last seq and appends anyway. */
class BrokenExpectedSeqIgnoredTest extends BrokenStoreTest {

  BrokenExpectedSeqIgnoredTest() {
    super(SessionStoreConformance.EventAppends.class, "expectedSeqMismatchIsAConflict",
        "error for expected seq 0 with the log at 3");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
        return delegate.append(sessionId, event);
      }
    });
  }
}
