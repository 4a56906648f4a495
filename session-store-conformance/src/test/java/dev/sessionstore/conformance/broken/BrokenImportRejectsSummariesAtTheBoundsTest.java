package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Summary;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;

/**
 * A store whose import checks an archive's summaries with exclusive bounds: a summary of a single seq, or one ending
 * at the archive's last seq, is rejected as out of range.
 */
class BrokenImportRejectsSummariesAtTheBoundsTest extends BrokenStoreTest {

  BrokenImportRejectsSummariesAtTheBoundsTest() {
    super(SessionStoreConformance.Archives.class, "summariesAtTheBoundsImport", "archive.summaries[0].toSeq");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        List<Summary> summaries = archive.summaries();
        for (int i = 0; i < summaries.size(); i++) {
          Summary summary = summaries.get(i);
          if (summary.fromSeq() >= summary.toSeq() || summary.toSeq() >= archive.lastSeq()) {
            throw new InvalidArgumentException("archive.summaries[" + i + "].toSeq", "out of range");
          }
        }
        return delegate.importSession(archive);
      }
    });
  }
}
