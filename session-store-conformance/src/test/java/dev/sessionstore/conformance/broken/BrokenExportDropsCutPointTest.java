package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose export leaves out the point retention cut the log at, as exports did before archives carried it: the
 * archive of a cut session claims a log from seq 1, so it no longer imports, and a wholly cut one loses its last seq.
 */
class BrokenExportDropsCutPointTest extends BrokenStoreTest {

  BrokenExportDropsCutPointTest() {
    super(new Caught(SessionStoreConformance.Archives.class, "aCutSessionExportsAndImportsAsItIs",
            "cut seq of the exported archive"),
        new Caught(SessionStoreConformance.Archives.class, "aWhollyCutSessionImportsWithItsLastSeq",
            "cut seq of the exported archive"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public Optional<SessionArchive> export(String sessionId) {
        return delegate.export(sessionId).map(archive -> archive.withCutSeq(0));
      }
    });
  }
}
