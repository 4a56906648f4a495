package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that checks the expected seq outside the append's lock (check, then act), so racing writers that expect
 * the same seq can all win.
 */
class BrokenExpectedSeqCheckThenActTest extends BrokenStoreTest {

  BrokenExpectedSeqCheckThenActTest() {
    super(SessionStoreConformance.Concurrency.class, "expectedSeqRacesHaveExactlyOneWinner", "winners of round ");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
        long actual = delegate.lastSeq(sessionId);
        if (actual != expectedLastSeq) {
          throw new SeqConflictException(sessionId, expectedLastSeq, actual);
        }
        try {
          Thread.sleep(2); // the window between check and write that a real race hits now and then
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return delegate.append(sessionId, event);
      }
    });
  }
}
