package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that drops a session's expiry on an update that leaves it, as an adapter does that writes the write's
 * {@code null} expiry over the stored one instead of keeping it.
 */
class BrokenExpiryDroppedOnUpdateTest extends BrokenStoreTest {

  BrokenExpiryDroppedOnUpdateTest() {
    super(SessionStoreConformance.Sessions.class, "expiryRoundTrips", "expiry kept by an update that leaves it");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSessions(sessions -> new ForwardingSessions(sessions) {
      @Override
      public Session save(SessionWrite write) {
        boolean update = delegate.find(write.id()).isPresent();
        return delegate.save(update && write.expiresAt() == null ? write.withoutExpiry() : write);
      }
    });
  }
}
