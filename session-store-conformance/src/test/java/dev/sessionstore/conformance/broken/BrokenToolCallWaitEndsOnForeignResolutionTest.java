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
 * A store whose tool-call wait gives up, empty, as soon as a call of the same id is resolved in any session: a wake-up
 * meant for another session ends the wait instead of being ignored, so the caller neither waits out its timeout nor
 * sees its own call's resolution.
 */
class BrokenToolCallWaitEndsOnForeignResolutionTest extends BrokenStoreTest {

  BrokenToolCallWaitEndsOnForeignResolutionTest() {
    super(new Caught(SessionStoreConformance.ToolCallWaits.class, "aResolutionInAnotherSessionIsNotTheAwaitedCall",
            "time await waited for the pending call"),
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
        boolean[] woken = new boolean[1];
        return SlicedWait.until(timeout, slice -> {
          Optional<ToolCall> own = delegate.await(sessionId, toolCallId, slice);
          woken[0] = own.isEmpty() && resolvedElsewhere(sessionId, toolCallId);
          return own;
        }, own -> own.isPresent() || woken[0]);
      }

      private boolean resolvedElsewhere(String sessionId, String toolCallId) {
        return sessionsByCall.getOrDefault(toolCallId, Set.of()).stream()
            .filter(session -> !session.equals(sessionId))
            .flatMap(session -> delegate.find(session, toolCallId).stream())
            .anyMatch(call -> call.status() != ToolCallStatus.PENDING);
      }
    });
  }
}
