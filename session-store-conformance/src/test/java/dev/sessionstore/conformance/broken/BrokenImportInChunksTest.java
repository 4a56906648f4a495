package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.spi.ArchiveRules;
import java.time.Clock;
import java.util.List;

/**
 * A store that commits a long log's first chunk (the session and its first 499 events) before it checks the rest, so
 * an invalid event later in the log leaves the first chunk stored.
 */
class BrokenImportInChunksTest extends BrokenStoreTest {

  private static final int CHUNK = 499;

  BrokenImportInChunksTest() {
    super(SessionStoreConformance.Archives.class, "anArchiveInvalidMidwayLeavesNothing",
        "session after the rejected import");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        if (archive.events().size() <= CHUNK) {
          return delegate.importSession(archive);
        }
        delegate.importSession(new SessionArchive(archive.session(), archive.events().subList(0, CHUNK), List.of(),
            List.of(), List.of(), List.of(), List.of()));
        ArchiveRules.check(archive, correct.capabilities());
        correct.sessions().delete(archive.sessionId());
        return delegate.importSession(archive);
      }
    });
  }
}
