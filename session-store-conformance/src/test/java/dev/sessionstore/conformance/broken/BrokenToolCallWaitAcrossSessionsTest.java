package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose tool-call wait is keyed by the call id alone: while it waits it also looks at the calls of that id in
 * every other session, and returns the first one resolved, as when waiters are registered by call id and not by
 * session and call.
 */
class BrokenToolCallWaitAcrossSessionsTest extends BrokenStoreTest {

  BrokenToolCallWaitAcrossSessionsTest() {
    super(new Caught(SessionStoreConformance.ToolCallWaits.class, "aResolutionInAnotherSessionIsNotTheAwaitedCall",
            "await in a session whose call of that id is pending"),
        new Caught(SessionStoreConformance.ToolCallWaits.class, "aWaiterIgnoresResolutionsInOtherSessions",
            "the same call id was resolved in another session"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    Map<String, Set<String>> sessionsByCall = new ConcurrentHashMap<>();
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public ToolCall save(ToolCallWrite call) {
        ToolCall saved = delegate.save(call);
        sessionsByCall.computeIfAbsent(call.id(), id -> ConcurrentHashMap.newKeySet()).add(call.sessionId());
        return saved;
      }

      @Override
      public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
        return SlicedWait.until(timeout, slice -> {
          Optional<ToolCall> own = delegate.await(sessionId, toolCallId, slice);
          return own.isPresent() ? own : resolvedElsewhere(toolCallId);
        }, Optional::isPresent);
      }

      private Optional<ToolCall> resolvedElsewhere(String toolCallId) {
        return sessionsByCall.getOrDefault(toolCallId, Set.of()).stream()
            .flatMap(session -> delegate.find(session, toolCallId).stream())
            .filter(call -> call.status() != ToolCallStatus.PENDING)
            .findFirst();
      }
    });
  }
}
