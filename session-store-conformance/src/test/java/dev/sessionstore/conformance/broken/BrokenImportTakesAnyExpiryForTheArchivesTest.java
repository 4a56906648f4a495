package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A store that settles a repeated import by taking any stored expired call for the archive's pending one of the same
 * id, whatever deadline expired it, so that a deadline the store moved earlier goes unnoticed.
 */
class BrokenImportTakesAnyExpiryForTheArchivesTest extends BrokenStoreTest {

  BrokenImportTakesAnyExpiryForTheArchivesTest() {
    super(SessionStoreConformance.Archives.class, "aRepeatedImportOverAChangedCallIsAConflict",
        "import over call-1h expired early by a deadline the store moved");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        Optional<SessionArchive> stored = delegate.export(archive.sessionId());
        if (stored.isEmpty()) {
          return delegate.importSession(archive);
        }
        Map<String, ToolCall> storedCalls = stored.get().toolCalls().stream()
            .collect(Collectors.toMap(ToolCall::id, Function.identity()));
        List<ToolCall> lenient = archive.toolCalls().stream().map(call -> {
          ToolCall storedCall = storedCalls.get(call.id());
          return call.status() == ToolCallStatus.PENDING && storedCall != null
              && storedCall.status() == ToolCallStatus.EXPIRED ? storedCall : call;
        }).toList();
        return delegate.importSession(archive.withToolCalls(lenient));
      }
    });
  }
}
