package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;

/**
 * A store whose waiting read gives up, with an empty page, when the log it waits on disappears: the read of a
 * session deleted and written again misses the new events.
 */
class BrokenWaitEndsOnDeletionTest extends BrokenStoreTest {

  BrokenWaitEndsOnDeletionTest() {
    super(SessionStoreConformance.WaitingReads.class, "aDeletedSessionsWaiterWakesOnTheNextAppend",
        "waiting read returned when its session was deleted");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public EventPage await(String sessionId, EventQuery query, Duration timeout) {
        if (timeout.isNegative()) {
          return delegate.await(sessionId, query, timeout);
        }
        boolean hadEvents = delegate.lastSeq(sessionId) > 0;
        return SlicedWait.until(timeout, slice -> delegate.await(sessionId, query, slice),
            page -> !page.isEmpty() || (hadEvents && delegate.lastSeq(sessionId) == 0));
      }
    });
  }
}
