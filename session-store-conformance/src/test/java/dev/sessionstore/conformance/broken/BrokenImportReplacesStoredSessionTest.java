package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose import replaces a different session stored under the archive's id. */
class BrokenImportReplacesStoredSessionTest extends BrokenStoreTest {

  BrokenImportReplacesStoredSessionTest() {
    super(SessionStoreConformance.Archives.class, "importOverADifferentSessionWritesNothing",
        "import over another session with the same id");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        ImportOutcome outcome = delegate.importSession(archive);
        if (outcome != ImportOutcome.CONFLICT) {
          return outcome;
        }
        correct.sessions().delete(archive.sessionId());
        return delegate.importSession(archive);
      }
    });
  }
}
