package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/**
 * A store that derives a due call's expiry on each read without storing it: every read shows the call expired anew,
 * at the time of that read.
 */
class BrokenExpiryNotStoredTest extends BrokenStoreTest {

  BrokenExpiryNotStoredTest() {
    super(SessionStoreConformance.Deadlines.class, "expiryIsFinal", "its expiry stored once");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public Optional<ToolCall> find(String sessionId, String toolCallId) {
        return delegate.find(sessionId, toolCallId).map(call -> call.status() != ToolCallStatus.EXPIRED ? call
            : new ToolCall(call.id(), call.sessionId(), call.runId(), call.requestEventId(), call.toolName(),
                call.arguments(), call.status(), call.result(), call.deadline(), call.createdAt(), clock.instant()));
      }
    });
  }
}
