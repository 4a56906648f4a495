package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * A store whose tool-call wait gives up, empty, when the call's session disappears: a call registered and resolved
 * again under the same ids is missed.
 */
class BrokenToolCallWaitEndsOnDeletionTest extends BrokenStoreTest {

  BrokenToolCallWaitEndsOnDeletionTest() {
    super(SessionStoreConformance.ToolCallWaits.class, "aWaitOutlivesTheDeletionOfItsSession",
        "session was deleted");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
        if (timeout.isNegative()) {
          return delegate.await(sessionId, toolCallId, timeout);
        }
        boolean existed = correct.sessions().find(sessionId).isPresent();
        return SlicedWait.until(timeout, slice -> delegate.await(sessionId, toolCallId, slice),
            call -> call.isPresent() || (existed && correct.sessions().find(sessionId).isEmpty()));
      }
    });
  }
}
