package dev.sessionstore.conformance.broken;

import dev.sessionstore.ForkOrigin;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A store whose forks share the deadlines of their copied calls with the parent, as when a deadline is keyed by the
 * call id and the session it was first registered in: setting or cancelling the deadline of a call in a fork or its
 * parent changes the other's too.
 */
class BrokenForkSharesCallDeadlinesTest extends BrokenStoreTest {

  BrokenForkSharesCallDeadlinesTest() {
    super(new Caught(SessionStoreConformance.Forks.class, "deadlinesOfAForkAndItsParentAreIndependent",
            "the fork's copy after the parent's was cancelled"),
        new Caught(SessionStoreConformance.ToolCallWaits.class, "aWaitOnAForksCopyWakesOnItsOwnExpiry",
            "what the waiter on the fork's copy got"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    ForkTracker[] forks = new ForkTracker[1];
    return ForwardingStore.of(correctStore(clock))
        .withSessions(sessions -> forks[0] = new ForkTracker(sessions))
        .withToolCalls(calls -> new ForwardingToolCalls(calls) {
          @Override
          public boolean expireAt(String sessionId, String toolCallId, Instant deadline) {
            boolean changed = delegate.expireAt(sessionId, toolCallId, deadline);
            for (String related : related(sessionId)) {
              try {
                delegate.expireAt(related, toolCallId, deadline);
              } catch (NotFoundException notThere) {
                // the related session has no copy of this call
              }
            }
            return changed;
          }

          @Override
          public boolean cancelDeadline(String sessionId, String toolCallId) {
            boolean changed = delegate.cancelDeadline(sessionId, toolCallId);
            related(sessionId).forEach(related -> delegate.cancelDeadline(related, toolCallId));
            return changed;
          }

          private List<String> related(String sessionId) {
            List<String> related = new ArrayList<>(forks[0].forksOf(sessionId));
            forks[0].origin(sessionId).map(ForkOrigin::sessionId).ifPresent(related::add);
            return related;
          }
        });
  }
}
