package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;

/** A store that creates the session a read waits on, to have a row to hang its waiters on. */
class BrokenWaitCreatesTheSessionTest extends BrokenStoreTest {

  BrokenWaitCreatesTheSessionTest() {
    super(SessionStoreConformance.WaitingReads.class, "aWaitOnAnUnknownIdCreatesNothing",
        "find of an id a read waits on");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public EventPage await(String sessionId, EventQuery query, Duration timeout) {
        if (correct.sessions().find(sessionId).isEmpty()) {
          correct.sessions().save(SessionWrite.of(sessionId));
        }
        return delegate.await(sessionId, query, timeout);
      }
    });
  }
}
