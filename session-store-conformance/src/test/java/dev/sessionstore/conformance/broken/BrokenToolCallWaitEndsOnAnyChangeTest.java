package dev.sessionstore.conformance.broken;

import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store whose tool-call wait is woken by every write to a call (a re-save, a moved or cancelled deadline, a
 * resolution) and returns the call as it reads it then, pending or not.
 */
class BrokenToolCallWaitEndsOnAnyChangeTest extends BrokenStoreTest {

  BrokenToolCallWaitEndsOnAnyChangeTest() {
    super(new Caught(SessionStoreConformance.ToolCallWaits.class, "aReSavedCallKeepsItsWaiterWaiting",
            "after re-saving the call"),
        new Caught(SessionStoreConformance.ToolCallWaits.class, "aMovedOrCancelledDeadlineKeepsItsWaiterWaiting",
            "after moving the call's deadline"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    AtomicLong writes = new AtomicLong();
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public ToolCall save(ToolCallWrite call) {
        ToolCall saved = delegate.save(call);
        writes.incrementAndGet();
        return saved;
      }

      @Override
      public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
        Resolution resolution = delegate.resolve(sessionId, toolCallId, status, result);
        writes.incrementAndGet();
        return resolution;
      }

      @Override
      public boolean expireAt(String sessionId, String toolCallId, Instant deadline) {
        boolean moved = delegate.expireAt(sessionId, toolCallId, deadline);
        writes.incrementAndGet();
        return moved;
      }

      @Override
      public boolean cancelDeadline(String sessionId, String toolCallId) {
        boolean cancelled = delegate.cancelDeadline(sessionId, toolCallId);
        writes.incrementAndGet();
        return cancelled;
      }

      @Override
      public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
        if (timeout.isNegative()) {
          return delegate.await(sessionId, toolCallId, timeout);
        }
        long seen = writes.get();
        Optional<ToolCall> woken = SlicedWait.until(timeout, slice -> delegate.await(sessionId, toolCallId, slice),
            call -> call.isPresent() || writes.get() != seen);
        return woken.isPresent() ? woken : delegate.find(sessionId, toolCallId);
      }
    });
  }
}
