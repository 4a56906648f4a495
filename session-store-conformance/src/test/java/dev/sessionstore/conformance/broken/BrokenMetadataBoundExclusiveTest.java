package dev.sessionstore.conformance.broken;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.spi.Upserts;
import java.time.Clock;
import java.util.Map;

/**
 * A store whose metadata bound is off by one: a save that brings a session to exactly
 * {@link Limits#MAX_METADATA_ENTRIES} entries is rejected.
 */
class BrokenMetadataBoundExclusiveTest extends BrokenStoreTest {

  BrokenMetadataBoundExclusiveTest() {
    super(SessionStoreConformance.Sessions.class, "metadataEntryBoundIsEnforcedAtItsEdge",
        "session.metadata: " + Limits.MAX_METADATA_ENTRIES + " entries or more");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSessions(sessions -> new ForwardingSessions(sessions) {
      @Override
      public Session save(SessionWrite write) {
        Map<String, String> stored = delegate.find(write.id()).map(Session::metadata).orElse(Map.of());
        int entries = Upserts.mergeMetadata(stored, write.metadata()).size();
        if (entries >= Limits.MAX_METADATA_ENTRIES) {
          throw new InvalidArgumentException("session.metadata",
              Limits.MAX_METADATA_ENTRIES + " entries or more (" + entries + ")");
        }
        return delegate.save(write);
      }
    });
  }
}
