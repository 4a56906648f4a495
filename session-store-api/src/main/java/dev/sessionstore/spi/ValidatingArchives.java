package dev.sessionstore.spi;

import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.UnsupportedCapabilityException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The archives of a {@link ValidatingSessionStore}: the closed check, then every rule of {@link ArchiveRules}, then
 * the adapter's. An archive reaches the adapter only once it is known importable by the store's capabilities.
 */
final class ValidatingArchives implements Archives {

  private final OpenGate gate;
  private final Archives adapter;
  private final Supplier<Set<Capability>> capabilities;

  ValidatingArchives(OpenGate gate, Archives adapter, Supplier<Set<Capability>> capabilities) {
    this.gate = gate;
    this.adapter = adapter;
    this.capabilities = capabilities;
  }

  @Override
  public Optional<SessionArchive> export(String sessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return adapter.export(sessionId);
  }

  @Override
  public ImportOutcome importSession(SessionArchive archive) {
    gate.checkOpen();
    return adapter.importSession(ArchiveRules.check(archive, capabilities.get()));
  }

  @Override
  public List<Checkpoint> globalCheckpoints() {
    gate.checkOpen();
    return adapter.globalCheckpoints();
  }

  @Override
  public ImportOutcome importGlobalCheckpoint(Checkpoint checkpoint) {
    gate.checkOpen();
    ArchiveRules.checkGlobal(checkpoint);
    if (!capabilities.get().contains(Capability.CHECKPOINTS)) {
      throw new UnsupportedCapabilityException(Capability.CHECKPOINTS);
    }
    return adapter.importGlobalCheckpoint(checkpoint);
  }
}
