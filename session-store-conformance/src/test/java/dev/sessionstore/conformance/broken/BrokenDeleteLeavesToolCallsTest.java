package dev.sessionstore.conformance.broken;

import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose session delete forgets the tool-call table: the calls of a deleted session can still be looked up
 * by id.
 */
class BrokenDeleteLeavesToolCallsTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    Map<String, ToolCall> table = new ConcurrentHashMap<>();
    ToolCalls broken = new ForwardingToolCalls(real.toolCalls()) {
      @Override
      public ToolCall save(ToolCallWrite call) {
        ToolCall saved = delegate.save(call);
        table.put(saved.id(), saved);
        return saved;
      }

      @Override
      public Resolution resolve(String toolCallId, ToolCallStatus status, Json result) {
        Resolution resolution = delegate.resolve(toolCallId, status, result);
        if (resolution instanceof Resolution.Resolved resolved) {
          table.put(toolCallId, resolved.call());
        }
        return resolution;
      }

      @Override
      public Optional<ToolCall> find(String toolCallId) {
        return delegate.find(toolCallId).or(() -> Optional.ofNullable(table.get(toolCallId)));
      }
    };
    return new ForwardingStore(real) {
      @Override
      public ToolCalls toolCalls() {
        return broken;
      }
    };
  }

  @Override
  protected Class<?> group() {
    return SessionStoreConformance.Deletion.class;
  }

  @Override
  protected String failingTest() {
    return "deleteRemovesToolCalls";
  }

  @Override
  protected String failureMentions() {
    return "pending tool call of a deleted session";
  }
}
