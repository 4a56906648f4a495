package dev.sessionstore.conformance.broken;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store that imports a global checkpoint with a plain put, which stamps the store's time on it. */
class BrokenGlobalCheckpointImportRestampsTest extends BrokenStoreTest {

  BrokenGlobalCheckpointImportRestampsTest() {
    super(SessionStoreConformance.Archives.class, "globalCheckpointsExportAndImport",
        "imported global checkpoints");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withArchives(archives -> new ForwardingArchives(archives) {
      @Override
      public ImportOutcome importGlobalCheckpoint(Checkpoint checkpoint) {
        if (correct.checkpoints().get(checkpoint.key()).isPresent()) {
          return delegate.importGlobalCheckpoint(checkpoint);
        }
        correct.checkpoints().put(checkpoint.key(), checkpoint.data());
        return ImportOutcome.IMPORTED;
      }
    });
  }
}
