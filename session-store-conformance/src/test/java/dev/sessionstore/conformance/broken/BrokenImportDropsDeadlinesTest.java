package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store that imports pending tool calls without their deadlines, so they never expire. */
class BrokenImportDropsDeadlinesTest extends BrokenStoreTest {

  BrokenImportDropsDeadlinesTest() {
    super(SessionStoreConformance.Archives.class, "anImportedPendingCallKeepsItsDeadlineAndExpires",
        "pending calls after the import");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        return delegate.importSession(new SessionArchive(archive.session(), archive.events(), archive.runs(),
            archive.toolCalls().stream().map(BrokenImportDropsDeadlinesTest::withoutDeadline).toList(),
            archive.summaries(), archive.checkpoints(), archive.modelCalls()));
      }
    });
  }

  private static ToolCall withoutDeadline(ToolCall call) {
    return new ToolCall(call.id(), call.sessionId(), call.runId(), call.requestEventId(), call.toolName(),
        call.arguments(), call.status(), call.result(), null, call.createdAt(), call.updatedAt());
  }
}
