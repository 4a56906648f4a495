package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;

/** A store whose waiting read never waits: it returns the plain read, empty when nothing matches yet. */
class BrokenWaitingReadReturnsAtOnceTest extends BrokenStoreTest {

  BrokenWaitingReadReturnsAtOnceTest() {
    super(SessionStoreConformance.WaitingReads.class, "wakesOnAnAppendFromAnotherThread",
        "events returned by the waiting read");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public EventPage await(String sessionId, EventQuery query, Duration timeout) {
        return delegate.read(sessionId, query);
      }
    });
  }
}
