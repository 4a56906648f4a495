package dev.sessionstore.conformance.broken;

import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose standalone resolve reports a retry of the resolution already stored as stale (a conflict) instead of
 * {@code Replayed}, so a caller retrying after an unknown outcome believes it lost; resolutions inside steps are
 * right.
 */
class BrokenRetriedResolveIsStaleTest extends BrokenStoreTest {

  BrokenRetriedResolveIsStaleTest() {
    super(new Caught(SessionStoreConformance.ToolCalls.class, "aRetriedResolveIsReplayed",
            "outcome of a resolve retried with the same status and result"),
        new Caught(SessionStoreConformance.ToolCalls.class, "concurrentRetriesOfOneResolutionAreReplays",
            "outcomes of the resolvers that did not win"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
        Resolution resolution = delegate.resolve(sessionId, toolCallId, status, result);
        if (resolution instanceof Resolution.Replayed replayed) {
          return new Resolution.Stale(toolCallId, Optional.of(replayed.call()));
        }
        return resolution;
      }
    });
  }
}
