package dev.sessionstore.conformance.broken;

import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/** A store that answers a resolve to PENDING or EXPIRED as stale instead of rejecting the status. */
class BrokenResolveAcceptsPendingStatusTest extends BrokenStoreTest {

  BrokenResolveAcceptsPendingStatusTest() {
    super(SessionStoreConformance.ArgumentRules.class, "toolCallArgumentsAreChecked", "resolve to PENDING: the error");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
        if (status == ToolCallStatus.PENDING || status == ToolCallStatus.EXPIRED) {
          return new Resolution.Stale(toolCallId, Optional.empty());
        }
        return delegate.resolve(sessionId, toolCallId, status, result);
      }
    });
  }
}
