package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/** A store whose metadata merge ignores keys mapped to null instead of removing them. */
class BrokenMetadataRemovalIgnoredTest extends BrokenStoreTest {

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore real = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    Sessions broken = new ForwardingSessions(real.sessions()) {
      @Override
      public Session save(SessionWrite write) {
        Map<String, String> withoutRemovals = new HashMap<>(write.metadata());
        withoutRemovals.values().removeIf(value -> value == null);
        return delegate.save(new SessionWrite(write.id(), write.name(), write.tenant(), write.agentId(),
            write.status(), write.settings(), withoutRemovals));
      }
    };
    return new ForwardingStore(real) {
      @Override
      public Sessions sessions() {
        return broken;
      }
    };
  }

  @Override
  protected Class<?> group() {
    return SessionStoreConformance.Sessions.class;
  }

  @Override
  protected String failingTest() {
    return "nullMetadataValueRemovesTheKey";
  }

  @Override
  protected String failureMentions() {
    return "metadata after removing key b";
  }
}
