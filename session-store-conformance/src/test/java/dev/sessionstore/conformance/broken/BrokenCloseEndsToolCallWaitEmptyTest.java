package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.ToolCall;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/** A store whose tool-call wait, released by close, returns empty as if it had timed out. */
class BrokenCloseEndsToolCallWaitEmptyTest extends BrokenStoreTest {

  BrokenCloseEndsToolCallWaitEmptyTest() {
    super(SessionStoreConformance.ClosedStore.class, "closeReleasesAToolCallWait",
        "returned Optional.empty after close");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
        try {
          return delegate.await(sessionId, toolCallId, timeout);
        } catch (StoreClosedException closed) {
          return Optional.empty();
        }
      }
    });
  }
}
