package dev.sessionstore.crypto;

import dev.sessionstore.Archives;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.spi.ForwardingArchives;
import dev.sessionstore.spi.Interception;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Archives exported in plaintext and imported sealed, so an archive moves between stores with different keys (or
 * none). An import the adapter finds in conflict because the stored values are sealed differently (another key since)
 * is {@link ImportOutcome#UNCHANGED} when the stored session, opened, is the archive: idempotency on plaintext.
 */
final class SealingArchives extends ForwardingArchives {

  private final Values values;
  private final BooleanSupplier auditEnabled;

  SealingArchives(Archives delegate, Values values, BooleanSupplier auditEnabled) {
    super(delegate, Interception.none());
    this.values = values;
    this.auditEnabled = auditEnabled;
  }

  @Override
  public Optional<SessionArchive> export(String sessionId) {
    return super.export(sessionId).map(values::open);
  }

  @Override
  public ImportOutcome importSession(SessionArchive archive) {
    ImportOutcome outcome = super.importSession(values.seal(archive));
    if (outcome == ImportOutcome.CONFLICT) {
      SessionArchive expected = auditEnabled.getAsBoolean() ? archive : archive.withModelCalls(List.of());
      if (export(archive.sessionId()).filter(expected::equals).isPresent()) {
        return ImportOutcome.UNCHANGED;
      }
    }
    return outcome;
  }

  @Override
  public List<Checkpoint> globalCheckpoints() {
    return Values.map(super.globalCheckpoints(), values::open);
  }

  @Override
  public ImportOutcome importGlobalCheckpoint(Checkpoint checkpoint) {
    ImportOutcome outcome = super.importGlobalCheckpoint(values.sealStored(checkpoint));
    if (outcome == ImportOutcome.CONFLICT) {
      CheckpointKey key = checkpoint.key();
      boolean same = globalCheckpoints().stream().anyMatch(stored -> stored.key().equals(key)
          && Arrays.equals(stored.data(), checkpoint.data()) && stored.updatedAt().equals(checkpoint.updatedAt()));
      if (same) {
        return ImportOutcome.UNCHANGED;
      }
    }
    return outcome;
  }
}
