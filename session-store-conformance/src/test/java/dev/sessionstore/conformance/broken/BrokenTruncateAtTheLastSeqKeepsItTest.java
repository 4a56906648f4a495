package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose truncation treats the last seq as past the end ({@code fromSeq >= lastSeq} removes nothing): cutting
 * at the last event keeps it.
 */
class BrokenTruncateAtTheLastSeqKeepsItTest extends BrokenStoreTest {

  BrokenTruncateAtTheLastSeqKeepsItTest() {
    super(SessionStoreConformance.Truncation.class, "truncatingAtTheLastSeqRemovesTheLastEvent",
        "events removed by truncating 3 events at seq 3");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public int truncate(String sessionId, long fromSeq) {
        return fromSeq >= delegate.lastSeq(sessionId) ? 0 : delegate.truncate(sessionId, fromSeq);
      }
    });
  }
}
