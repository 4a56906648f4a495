package dev.sessionstore.conformance.broken;

import dev.sessionstore.NotFoundException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose cancelDeadline treats an unknown session as an error, as setting a deadline does. */
class BrokenCancelDeadlineOfUnknownSessionTest extends BrokenStoreTest {

  BrokenCancelDeadlineOfUnknownSessionTest() {
    super(SessionStoreConformance.Deadlines.class, "cancelDeadlineReportsWhetherItRemovedOne", "NotFoundException");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public boolean cancelDeadline(String sessionId, String toolCallId) {
        if (correct.sessions().find(sessionId).isEmpty()) {
          throw new NotFoundException("session", sessionId);
        }
        return delegate.cancelDeadline(sessionId, toolCallId);
      }
    });
  }
}
