package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * A store whose import stores a cut log from seq 1, as an import that knows only whole logs would: the imported
 * session's seqs and last seq differ from the exported one's (summaries past its new end are dropped so that the
 * archive still imports).
 */
class BrokenImportRenumbersCutLogTest extends BrokenStoreTest {

  BrokenImportRenumbersCutLogTest() {
    super(SessionStoreConformance.Archives.class, "aCutSessionExportsAndImportsAsItIs",
        "export of the imported cut session");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        if (!archive.isCut()) {
          return delegate.importSession(archive);
        }
        List<Event> renumbered = new ArrayList<>();
        for (Event event : archive.events()) {
          renumbered.add(new Event(event.sessionId(), renumbered.size() + 1, event.id(), event.type(), event.runId(),
              event.agentId(), event.parentId(), event.payload(), event.timestamp()));
        }
        return delegate.importSession(archive.withEvents(renumbered).withCutSeq(0)
            .withSummaries(archive.summaries().stream().filter(summary -> summary.toSeq() <= renumbered.size())
                .toList()));
      }
    });
  }
}
