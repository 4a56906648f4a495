package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;

/** A store whose waiting read does not honour its timeout: it waits ten seconds longer than asked. */
class BrokenWaitingReadOverstaysTimeoutTest extends BrokenStoreTest {

  BrokenWaitingReadOverstaysTimeoutTest() {
    super(SessionStoreConformance.WaitingReads.class, "timesOutWithAnEmptyPage",
        "milliseconds waited with a timeout of PT0.4S");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public EventPage await(String sessionId, EventQuery query, Duration timeout) {
        if (timeout.isNegative()) {
          return delegate.await(sessionId, query, timeout);
        }
        return delegate.await(sessionId, query, timeout.plusSeconds(10));
      }
    });
  }
}
