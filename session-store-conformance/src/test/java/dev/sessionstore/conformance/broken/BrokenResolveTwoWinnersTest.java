package dev.sessionstore.conformance.broken;

import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.spi.ToolCallTransitions;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose resolve checks that the call is pending, then writes in a separate step (check, then act): every
 * resolver that saw the call pending believes it won, so concurrent resolvers get several winners. Nothing widens
 * the window between the check and the write: the kit must hit it as a real race would.
 */
class BrokenResolveTwoWinnersTest extends BrokenStoreTest {

  BrokenResolveTwoWinnersTest() {
    super(SessionStoreConformance.ToolCalls.class, "manyCallsEachRacedByResolversReleasedTogether",
        "calls without exactly one winner");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
        Optional<ToolCall> seen = delegate.find(sessionId, toolCallId);
        if (seen.isEmpty() || seen.get().status() != ToolCallStatus.PENDING) {
          return delegate.resolve(sessionId, toolCallId, status, result);
        }
        Resolution written = delegate.resolve(sessionId, toolCallId, status, result);
        if (written.won()) {
          return written;
        }
        // The check said pending, so this resolve reports the write it made as a win.
        return new Resolution.Resolved(
            ToolCallTransitions.resolved(seen.get(), status, result == null ? Json.emptyObject() : result,
            clock.instant()));
      }
    });
  }
}
