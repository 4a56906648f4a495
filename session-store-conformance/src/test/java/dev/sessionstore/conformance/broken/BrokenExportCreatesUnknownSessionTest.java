package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/** A store that exports an unknown session by creating it, as an implicit write would. */
class BrokenExportCreatesUnknownSessionTest extends BrokenStoreTest {

  BrokenExportCreatesUnknownSessionTest() {
    super(SessionStoreConformance.Archives.class, "exportOfAnUnknownSessionIsEmpty", "export of an unknown session");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public Optional<SessionArchive> export(String sessionId) {
        if (correct.sessions().find(sessionId).isEmpty()) {
          correct.sessions().save(SessionWrite.of(sessionId));
        }
        return delegate.export(sessionId);
      }
    });
  }
}
