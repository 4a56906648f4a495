package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose forks share the parent's log instead of owning a copy: whatever is appended to a fork also lands in
 * the log it was forked from.
 */
class BrokenForkSharesParentLogTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    Map<String, String> parentOfFork = new ConcurrentHashMap<>();
    Sessions sessions = new ForwardingSessions(real.sessions()) {
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
    };
    EventLog events = new ForwardingEventLog(real.events()) {
      @Override
      public Event append(String sessionId, NewEvent event) {
        Event appended = delegate.append(sessionId, event);
        String parent = parentOfFork.get(sessionId);
        if (parent != null) {
          delegate.append(parent, event);
        }
        return appended;
      }
    };
    return new ForwardingStore(real) {
      @Override
      public Sessions sessions() {
        return sessions;
      }

      @Override
      public EventLog events() {
        return events;
      }
    };
  }

  @Override
  protected Class<?> group() {
    return SessionStoreConformance.Forks.class;
  }

  @Override
  protected String failingTest() {
    return "appendsToTheForkDoNotReachTheParent";
  }

  @Override
  protected String failureMentions() {
    return "parent log after appending to the fork";
  }
}
