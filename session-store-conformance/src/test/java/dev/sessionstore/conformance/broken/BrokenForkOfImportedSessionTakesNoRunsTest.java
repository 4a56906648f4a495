package dev.sessionstore.conformance.broken;

import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose import stores the events but not where they first name their runs, so a fork of an imported session
 * takes none of its runs.
 */
class BrokenForkOfImportedSessionTakesNoRunsTest extends BrokenStoreTest {

  BrokenForkOfImportedSessionTakesNoRunsTest() {
    super(SessionStoreConformance.Archives.class, "aForkOfAnImportedSessionTakesTheRunsItsPrefixNames",
        "runs of a fork of the imported session at seq 2");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    RunlessForks runless = new RunlessForks();
    return runless.store(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importSession(SessionArchive archive) {
        runless.forget(archive.session().id());
        return delegate.importSession(archive);
      }
    });
  }
}
