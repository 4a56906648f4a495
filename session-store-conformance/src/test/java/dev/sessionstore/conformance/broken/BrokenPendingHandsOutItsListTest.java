package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose {@code toolCalls().pending} hands out the list it keeps per session: a caller that changes the list
 * changes what the next caller sees.
 */
class BrokenPendingHandsOutItsListTest extends BrokenStoreTest {

  BrokenPendingHandsOutItsListTest() {
    super(SessionStoreConformance.ReturnedLists.class, "everyReturnedListIsUnmodifiable",
        "toolCalls().pending(sessionId)");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      /** The list kept per session and handed out as is. */
      private final Map<String, List<ToolCall>> kept = new ConcurrentHashMap<>();

      @Override
      public List<ToolCall> pending(String sessionId) {
        List<ToolCall> list = kept.computeIfAbsent(sessionId, id -> new ArrayList<>());
        list.clear();
        list.addAll(delegate.pending(sessionId));
        return list;
      }
    });
  }
}
