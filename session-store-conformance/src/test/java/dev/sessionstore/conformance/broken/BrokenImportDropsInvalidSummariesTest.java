package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;

/** A store that imports an archive whose summaries do not fit its log without them, instead of rejecting it. */
class BrokenImportDropsInvalidSummariesTest extends BrokenStoreTest {

  BrokenImportDropsInvalidSummariesTest() {
    super(SessionStoreConformance.Archives.class, "invalidArchivesAreRejected", "a summary past the last seq");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        try {
          return delegate.importSession(archive);
        } catch (InvalidArgumentException invalid) {
          if (!invalid.field().startsWith("archive.summaries")) {
            throw invalid;
          }
          return delegate.importSession(archive.withSummaries(List.of()));
        }
      }
    });
  }
}
