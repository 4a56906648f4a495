package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/** A store whose export answers a null session id with an empty result instead of rejecting it. */
class BrokenExportOfNullIdIsEmptyTest extends BrokenStoreTest {

  BrokenExportOfNullIdIsEmptyTest() {
    super(SessionStoreConformance.Archives.class, "badArgumentsAreRejected", "export(null)");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public Optional<SessionArchive> export(String sessionId) {
        return sessionId == null ? Optional.empty() : delegate.export(sessionId);
      }
    });
  }
}
