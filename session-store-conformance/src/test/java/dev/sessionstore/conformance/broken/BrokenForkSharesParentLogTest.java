package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose forks share the parent's log instead of owning a copy: whatever is appended to a fork also lands in
 * the log it was forked from.
 */
class BrokenForkSharesParentLogTest extends BrokenStoreTest {

  BrokenForkSharesParentLogTest() {
    super(SessionStoreConformance.Forks.class, "appendsToTheForkDoNotReachTheParent",
        "parent log after appending to the fork");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    Map<String, String> parentOfFork = new ConcurrentHashMap<>();
    return ForwardingStore.of(correctStore(clock))
        .withSessions(sessions -> new ForwardingSessions(sessions) {
          @Override
          public Session fork(String sessionId, long atSeq) {
            return remember(delegate.fork(sessionId, atSeq), sessionId);
          }

          @Override
          public Session fork(String sessionId, long atSeq, String newSessionId) {
            return remember(delegate.fork(sessionId, atSeq, newSessionId), sessionId);
          }

          private Session remember(Session fork, String parent) {
            parentOfFork.put(fork.id(), parent);
            return fork;
          }
        })
        .withEvents(log -> new ForwardingEventLog(log) {
          @Override
          public Event append(String sessionId, NewEvent event) {
            Event appended = delegate.append(sessionId, event);
            String parent = parentOfFork.get(sessionId);
            if (parent != null) {
              delegate.append(parent, event);
            }
            return appended;
          }
        });
  }
}
