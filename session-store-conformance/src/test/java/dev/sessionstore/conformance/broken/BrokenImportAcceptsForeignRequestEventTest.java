package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A store that imports a tool call whose requesting event the archive's log lacks, silently dropping the link instead
 * of rejecting the archive.
 */
class BrokenImportAcceptsForeignRequestEventTest extends BrokenStoreTest {

  BrokenImportAcceptsForeignRequestEventTest() {
    super(new Caught(SessionStoreConformance.Archives.class, "invalidArchivesAreRejected",
            "a call requested by an event the log lacks"),
        new Caught(SessionStoreConformance.Archives.class, "aCutDropsTheLinksToTheEventsItRemoved",
            "import of a call requested by an event its archive's log lacks"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        Set<String> logged = archive.events().stream().map(Event::id).collect(Collectors.toSet());
        return delegate.importSession(archive.withToolCalls(archive.toolCalls().stream()
            .map(call -> call.requestEventId() == null || logged.contains(call.requestEventId()) ? call
                : new ToolCall(call.id(), call.sessionId(), call.runId(), null, call.toolName(), call.arguments(),
                    call.status(), call.result(), call.deadline(), call.createdAt(), call.updatedAt()))
            .toList()));
      }
    });
  }
}
