package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose lastSeq is off by one for sessions it does not know (-1 instead of 0). */
class BrokenLastSeqOfUnknownSessionTest extends BrokenStoreTest {

  BrokenLastSeqOfUnknownSessionTest() {
    super(SessionStoreConformance.EventAppends.class, "lastSeqIsZeroForUnknownAndEmptySessions",
        "lastSeq of an unknown session");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public long lastSeq(String sessionId) {
        long latest = delegate.lastSeq(sessionId);
        return correct.sessions().find(sessionId).isPresent() ? latest : latest - 1;
      }
    });
  }
}
