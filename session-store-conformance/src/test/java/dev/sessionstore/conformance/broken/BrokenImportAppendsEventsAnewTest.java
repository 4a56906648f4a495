package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;

/**
 * A store that imports the session, then appends its events through the append path as new events: the seqs come
 * out the same, but every event gets a generated id and the store's time.
 */
class BrokenImportAppendsEventsAnewTest extends BrokenStoreTest {

  BrokenImportAppendsEventsAnewTest() {
    super(SessionStoreConformance.Archives.class, "importedEventsKeepTheirIdsAndSeqs", "imported log");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        if (!archive.summaries().isEmpty() || !archive.toolCalls().isEmpty()) {
          return delegate.importSession(archive);
        }
        ImportOutcome outcome = delegate.importSession(new SessionArchive(archive.session(), List.of(),
            archive.runs(), List.of(), List.of(), archive.checkpoints(), archive.modelCalls()));
        if (outcome == ImportOutcome.IMPORTED && !archive.events().isEmpty()) {
          correct.events().appendAll(archive.sessionId(), archive.events().stream()
              .map(BrokenImportAppendsEventsAnewTest::anew).toList());
        }
        return outcome;
      }
    });
  }

  private static NewEvent anew(Event event) {
    return NewEvent.of(event.type(), event.payload()).withRunId(event.runId()).withAgentId(event.agentId())
        .withParentId(event.parentId());
  }
}
