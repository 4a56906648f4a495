package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose forks copy the pending calls of their prefix without their deadlines, as when a fork copies the call
 * rows but not the deadlines held beside them: the fork's copies never expire.
 */
class BrokenForkDropsCallDeadlinesTest extends BrokenStoreTest {

  BrokenForkDropsCallDeadlinesTest() {
    super(new Caught(SessionStoreConformance.Forks.class, "aForkedPendingCallExpiresAtItsDeadline",
            "deadline of the fork's copy"),
        new Caught(SessionStoreConformance.ToolCallWaits.class, "aWaitOnAForksCopyWakesOnItsOwnExpiry",
            "what the waiter on the fork's copy got"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withSessions(sessions -> new ForwardingSessions(sessions) {
      @Override
      public Session fork(String sessionId, long atSeq) {
        return withoutDeadlines(delegate.fork(sessionId, atSeq));
      }

      @Override
      public Session fork(String sessionId, long atSeq, String newSessionId) {
        return withoutDeadlines(delegate.fork(sessionId, atSeq, newSessionId));
      }

      private Session withoutDeadlines(Session fork) {
        for (ToolCall call : correct.toolCalls().pending(fork.id())) {
          correct.toolCalls().cancelDeadline(fork.id(), call.id());
        }
        return fork;
      }
    });
  }
}
