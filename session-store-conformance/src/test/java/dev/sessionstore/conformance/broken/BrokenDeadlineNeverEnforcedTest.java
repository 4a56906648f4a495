package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.spi.ToolCallTransitions;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A store that records and shows a tool call's deadline but never acts on it: reads return the call pending long
 * after the deadline passed, as when expiry is left to a timer in the caller's process that died.
 */
class BrokenDeadlineNeverEnforcedTest extends BrokenStoreTest {

  /** A deadline the kit's clock never reaches; the real store holds this one instead of the caller's. */
  private static final Instant NEVER = Instant.parse("9999-01-01T00:00:00Z");

  BrokenDeadlineNeverEnforcedTest() {
    super(SessionStoreConformance.Deadlines.class, "aDueCallIsExpiredOnFind",
        "after its deadline 2030-01-01T00:00:30Z passed");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      /** The deadline each caller asked for, shown in place of {@link #NEVER}. */
      private final Map<String, Instant> deadlines = new ConcurrentHashMap<>();

      @Override
      public boolean expireAt(String sessionId, String toolCallId, Instant deadline) {
        boolean set = delegate.expireAt(sessionId, toolCallId, deadline == null ? null : NEVER);
        if (set) {
          deadlines.put(sessionId + "/" + toolCallId, deadline);
        }
        return set;
      }

      @Override
      public boolean expireAfter(String sessionId, String toolCallId, Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
          return delegate.expireAfter(sessionId, toolCallId, timeout);
        }
        return expireAt(sessionId, toolCallId, clock.instant().plus(timeout));
      }

      @Override
      public Optional<ToolCall> find(String sessionId, String toolCallId) {
        return delegate.find(sessionId, toolCallId).map(this::shown);
      }

      @Override
      public List<ToolCall> pending(String sessionId) {
        return delegate.pending(sessionId).stream().map(this::shown).collect(Collectors.toList());
      }

      private ToolCall shown(ToolCall call) {
        return NEVER.equals(call.deadline()) ? ToolCallTransitions.withDeadline(call,
            deadlines.get(call.sessionId() + "/" + call.id()), call.updatedAt()) : call;
      }
    });
  }
}
