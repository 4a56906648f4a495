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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose session delete forgets the tool-call table: the calls of a deleted session can still be looked up
 * by id.
 */
class BrokenDeleteLeavesToolCallsTest extends BrokenStoreTest {

  BrokenDeleteLeavesToolCallsTest() {
    super(SessionStoreConformance.Deletion.class, "deleteRemovesToolCalls", "pending tool call of a deleted session");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      /** Every call saved or resolved, by id; session delete never reaches it. */
      private final Map<String, ToolCall> table = new ConcurrentHashMap<>();

      @Override
      public ToolCall save(ToolCallWrite call) {
        ToolCall saved = delegate.save(call);
        table.put(saved.sessionId() + "/" + saved.id(), saved);
        return saved;
      }

      @Override
      public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
        Resolution resolution = delegate.resolve(sessionId, toolCallId, status, result);
        if (resolution instanceof Resolution.Resolved resolved) {
          table.put(sessionId + "/" + toolCallId, resolved.call());
        }
        return resolution;
      }

      @Override
      public Optional<ToolCall> find(String sessionId, String toolCallId) {
        return delegate.find(sessionId, toolCallId)
            .or(() -> Optional.ofNullable(table.get(sessionId + "/" + toolCallId)));
      }
    });
  }
}
