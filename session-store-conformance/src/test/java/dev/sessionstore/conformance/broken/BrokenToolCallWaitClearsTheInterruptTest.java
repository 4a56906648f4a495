package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/** A store whose interrupted tool-call wait returns but swallows the interrupt: the thread's flag is cleared. */
class BrokenToolCallWaitClearsTheInterruptTest extends BrokenStoreTest {

  BrokenToolCallWaitClearsTheInterruptTest() {
    super(SessionStoreConformance.ToolCallWaits.class, "anInterruptedWaitReturnsEmpty",
        "the waiting thread's interrupt flag");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
        Optional<ToolCall> call = delegate.await(sessionId, toolCallId, timeout);
        Thread.interrupted();
        return call;
      }
    });
  }
}
