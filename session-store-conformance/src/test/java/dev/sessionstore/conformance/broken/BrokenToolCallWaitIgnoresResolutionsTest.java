package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * A store whose tool-call wait looks once and then sleeps out its timeout: a resolution made while it sleeps is never
 * seen, as when resolutions signal no waiter.
 */
class BrokenToolCallWaitIgnoresResolutionsTest extends BrokenStoreTest {

  BrokenToolCallWaitIgnoresResolutionsTest() {
    super(SessionStoreConformance.ToolCallWaits.class, "wakesOnResolution",
        "what the waiter got after the resolution");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
        Optional<ToolCall> now = delegate.find(sessionId, toolCallId)
            .filter(call -> call.status() != ToolCallStatus.PENDING);
        if (now.isPresent()) {
          return now;
        }
        try {
          Thread.sleep(timeout.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return Optional.empty();
      }
    });
  }
}
