package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;

/** A store whose waiting read, when the store is closed under it, stays blocked until its own timeout. */
class BrokenCloseReleasesWaitingReadLateTest extends BrokenStoreTest {

  BrokenCloseReleasesWaitingReadLateTest() {
    super(SessionStoreConformance.ClosedStore.class, "closeReleasesAWaitingRead", "was still blocked");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public EventPage await(String sessionId, EventQuery query, Duration timeout) {
        long start = System.nanoTime();
        try {
          return delegate.await(sessionId, query, timeout);
        } catch (StoreClosedException closed) {
          sleepOut(timeout.minusNanos(System.nanoTime() - start));
          throw closed;
        }
      }
    });
  }

  private static void sleepOut(Duration rest) {
    try {
      Thread.sleep(Math.max(0, rest.toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
