package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose forks lose their pending tool calls when the parent is deleted, as when the fork's calls are the
 * parent's rows: deleting the parent cancels them.
 */
class BrokenForkLosesPendingCallsWithParentTest extends BrokenStoreTest {

  BrokenForkLosesPendingCallsWithParentTest() {
    super(SessionStoreConformance.Forks.class, "deletingTheParentLeavesTheForkWhole",
        "pending calls of the fork after deleting the parent");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withSessions(sessions -> new ForkTracker(sessions) {
      @Override
      public boolean delete(String sessionId) {
        for (String fork : forksOf(sessionId)) {
          for (ToolCall call : correct.toolCalls().pending(fork)) {
            correct.toolCalls().resolve(fork, call.id(), ToolCallStatus.CANCELLED, null);
          }
        }
        return delegate.delete(sessionId);
      }
    });
  }
}
