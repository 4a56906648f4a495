package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/**
 * A store that settles a repeated import by plain equality with its export, so that once a deadline of the archive
 * has fired (the stored call expired, the archived one pending) the repeat is a conflict.
 */
class BrokenImportComparesDueCallsAsArchivedTest extends BrokenStoreTest {

  BrokenImportComparesDueCallsAsArchivedTest() {
    super(new Caught(SessionStoreConformance.Archives.class, "aRepeatedImportAfterTheArchivesDeadlinesFiredIsUnchanged",
            "second import, after call-1h's deadline fired"),
        new Caught(SessionStoreConformance.Archives.class, "importingTwiceChangesNothing",
            "third import, after the deadline of the archive's pending call-deadline fired"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        Optional<SessionArchive> stored = delegate.export(archive.sessionId());
        if (stored.isPresent()) {
          return stored.get().equals(archive) ? ImportOutcome.UNCHANGED : ImportOutcome.CONFLICT;
        }
        return delegate.importSession(archive);
      }
    });
  }
}
