package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store that reports a repeated import of a stored session as imported again. */
class BrokenImportReportsRepeatAsImportedTest extends BrokenStoreTest {

  BrokenImportReportsRepeatAsImportedTest() {
    super(SessionStoreConformance.Archives.class, "importingTwiceChangesNothing",
        "import into the store it came from");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        ImportOutcome outcome = delegate.importSession(archive);
        return outcome == ImportOutcome.UNCHANGED ? ImportOutcome.IMPORTED : outcome;
      }
    });
  }
}
