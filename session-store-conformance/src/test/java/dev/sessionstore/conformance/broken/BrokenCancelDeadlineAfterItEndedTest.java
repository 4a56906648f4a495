package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose cancelDeadline answers from the deadlines it was given, not from the call as it stands: it reports
 * a cancel for a call that has since expired or been resolved, whose deadline is gone already.
 */
class BrokenCancelDeadlineAfterItEndedTest extends BrokenStoreTest {

  BrokenCancelDeadlineAfterItEndedTest() {
    super(new Caught(SessionStoreConformance.Deadlines.class, "cancelDeadlineOfAnExpiredCall",
            "cancelling the deadline of an expired call"),
        new Caught(SessionStoreConformance.Deadlines.class, "cancelDeadlineOfAResolvedCall",
            "cancelling the deadline of a resolved call"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    Map<String, Instant> given = new ConcurrentHashMap<>();
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public boolean expireAt(String sessionId, String toolCallId, Instant deadline) {
        boolean set = delegate.expireAt(sessionId, toolCallId, deadline);
        given.put(sessionId + "/" + toolCallId, deadline);
        return set;
      }

      @Override
      public boolean expireAfter(String sessionId, String toolCallId, Duration timeout) {
        boolean set = delegate.expireAfter(sessionId, toolCallId, timeout);
        given.put(sessionId + "/" + toolCallId, clock.instant().plus(timeout));
        return set;
      }

      @Override
      public boolean cancelDeadline(String sessionId, String toolCallId) {
        boolean cancelled = delegate.cancelDeadline(sessionId, toolCallId);
        return given.remove(sessionId + "/" + toolCallId) != null || cancelled;
      }
    });
  }
}
