package dev.sessionstore.conformance.broken;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;

/**
 * A store that counts a waiting read's timeout in nanoseconds without minding overflow: an endless timeout wraps to
 * a negative count and the read returns at once, empty.
 */
class BrokenEndlessTimeoutOverflowsTest extends BrokenStoreTest {

  BrokenEndlessTimeoutOverflowsTest() {
    super(SessionStoreConformance.WaitingReads.class, "anEndlessTimeoutStillWakes",
        "a read with an endless timeout returned before any append");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public EventPage await(String sessionId, EventQuery query, Duration timeout) {
        if (timeout.isNegative()) {
          return delegate.await(sessionId, query, timeout);
        }
        long nanos = timeout.getSeconds() * 1_000_000_000L + timeout.getNano();
        return delegate.await(sessionId, query, Duration.ofNanos(Math.max(0, nanos)));
      }
    });
  }
}
