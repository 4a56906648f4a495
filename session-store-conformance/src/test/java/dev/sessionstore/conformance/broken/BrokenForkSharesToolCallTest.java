package dev.sessionstore.conformance.broken;

import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose forks share their tool calls with the parent: resolving a call in a fork resolves the parent's call
 * of the same id too, as when a fork points at the parent's rows instead of copying them.
 */
class BrokenForkSharesToolCallTest extends BrokenStoreTest {

  BrokenForkSharesToolCallTest() {
    super(SessionStoreConformance.Forks.class, "aForkTakesRunsToolCallsAndCheckpointsOfItsPrefix", "the parent's call");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    Map<String, String> parents = new ConcurrentHashMap<>();
    ForwardingStore correct = ForwardingStore.of(correctStore(clock));
    return correct
        .withSessions(sessions -> new ForwardingSessions(sessions) {
          @Override
          public Session fork(String sessionId, long atSeq) {
            Session fork = delegate.fork(sessionId, atSeq);
            parents.put(fork.id(), sessionId);
            return fork;
          }
        })
        .withToolCalls(calls -> new ForwardingToolCalls(calls) {
          @Override
          public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
            Resolution resolution = delegate.resolve(sessionId, toolCallId, status, result);
            String parent = parents.get(sessionId);
            if (parent != null && resolution.won()) {
              delegate.resolve(parent, toolCallId, status, result);
            }
            return resolution;
          }
        });
  }
}
