package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.Session;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store that imports a fork whose parent it does not hold as an original session, losing its fork origin. */
class BrokenImportDropsForkOriginTest extends BrokenStoreTest {

  BrokenImportDropsForkOriginTest() {
    super(SessionStoreConformance.Archives.class, "aForksArchiveImportsWithoutItsParent",
        "origin of the imported fork");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        Session session = archive.session();
        if (session.forkedFrom() == null || correct.sessions().find(session.forkedFrom().sessionId()).isPresent()) {
          return delegate.importSession(archive);
        }
        Session original = new Session(session.id(), session.name(), session.tenant(), session.agentId(),
            session.status(), session.settings(), session.metadata(), null, session.createdAt(),
            session.updatedAt(), session.expiresAt(), session.lastSeq());
        return delegate.importSession(new SessionArchive(original, archive.events(), archive.runs(),
            archive.toolCalls(), archive.summaries(), archive.checkpoints(), archive.modelCalls()));
      }
    });
  }
}
