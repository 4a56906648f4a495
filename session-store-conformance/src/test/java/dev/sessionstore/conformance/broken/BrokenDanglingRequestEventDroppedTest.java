package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that saves a tool call whose requesting event it cannot find, silently dropping the reference instead of
 * rejecting the call.
 */
class BrokenDanglingRequestEventDroppedTest extends BrokenStoreTest {

  BrokenDanglingRequestEventDroppedTest() {
    super(SessionStoreConformance.ToolCalls.class, "aCallRequestedByAnUnknownEventIsNotSaved",
        "Expecting code to raise a throwable");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public ToolCall save(ToolCallWrite write) {
        if (write.requestEventId() != null
            && correct.events().find(write.sessionId(), write.requestEventId()).isEmpty()) {
          return delegate.save(new ToolCallWrite(write.id(), write.sessionId(), write.runId(), null,
              write.toolName(), write.arguments(), write.deadline()));
        }
        return delegate.save(write);
      }
    });
  }
}
