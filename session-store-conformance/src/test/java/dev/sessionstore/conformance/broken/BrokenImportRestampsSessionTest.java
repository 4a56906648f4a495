package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.Session;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose import stamps the session's update time with its own clock, as a save would. */
class BrokenImportRestampsSessionTest extends BrokenStoreTest {

  BrokenImportRestampsSessionTest() {
    super(SessionStoreConformance.Archives.class, "aRoundTripIntoAFreshStoreGivesAnIdenticalExport",
        "export of the imported session");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        Session session = archive.session();
        Session restamped = new Session(session.id(), session.name(), session.tenant(), session.agentId(),
            session.status(), session.settings(), session.metadata(), session.forkedFrom(), session.createdAt(),
            clock.instant(), session.expiresAt(), session.lastSeq());
        return delegate.importSession(new SessionArchive(restamped, archive.events(), archive.runs(),
            archive.toolCalls(), archive.summaries(), archive.checkpoints(), archive.modelCalls()));
      }
    });
  }
}
