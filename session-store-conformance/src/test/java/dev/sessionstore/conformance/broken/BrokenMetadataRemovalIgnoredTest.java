package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/** A store whose metadata merge ignores keys mapped to null instead of removing them. */
class BrokenMetadataRemovalIgnoredTest extends BrokenStoreTest {

  BrokenMetadataRemovalIgnoredTest() {
    super(SessionStoreConformance.Sessions.class, "nullMetadataValueRemovesTheKey", "metadata after removing key b");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSessions(sessions -> new ForwardingSessions(sessions) {
      @Override
      public Session save(SessionWrite write) {
        Map<String, String> withoutRemovals = new HashMap<>(write.metadata());
        withoutRemovals.values().removeIf(value -> value == null);
        return delegate.save(new SessionWrite(write.id(), write.name(), write.tenant(), write.agentId(),
            write.status(), write.settings(), withoutRemovals, write.expiresAt(), write.clearsExpiry()));
      }
    });
  }
}
