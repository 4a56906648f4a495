package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose truncation is exclusive ({@code seq > fromSeq}): the event the caller wanted to edit away stays.
 */
class BrokenTruncateKeepsTheCutEventTest extends BrokenStoreTest {

  BrokenTruncateKeepsTheCutEventTest() {
    super(SessionStoreConformance.Truncation.class, "truncateRemovesTheCutEventAndEverythingAfter",
        "events removed by truncating 7 events at seq 5");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public int truncate(String sessionId, long fromSeq) {
        return delegate.truncate(sessionId, fromSeq + 1);
      }
    });
  }
}
