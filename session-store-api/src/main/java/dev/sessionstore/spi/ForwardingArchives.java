package dev.sessionstore.spi;

import dev.sessionstore.Archives;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import java.util.List;
import java.util.Optional;

/**
 * {@link Archives} that forwards every method to a delegate through an {@link Interception}; a decorator overrides
 * the methods whose values it changes and calls {@code super} to forward. Thread-safe when the delegate and the
 * interception are.
 */
public class ForwardingArchives implements Archives {

  private final Archives delegate;
  private final Interception interception;

  /** Forwards to {@code delegate}, every call through {@code interception}. */
  public ForwardingArchives(Archives delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  @Override
  public Optional<SessionArchive> export(String sessionId) {
    return interception.around("archives.export", sessionId, () -> delegate.export(sessionId));
  }

  @Override
  public ImportOutcome importSession(SessionArchive archive) {
    return interception.around("archives.importSession", archive == null ? null : archive.sessionId(),
        () -> delegate.importSession(archive));
  }

  @Override
  public List<Checkpoint> globalCheckpoints() {
    return interception.around("archives.globalCheckpoints", null, delegate::globalCheckpoints);
  }

  @Override
  public ImportOutcome importGlobalCheckpoint(Checkpoint checkpoint) {
    return interception.around("archives.importGlobalCheckpoint", null,
        () -> delegate.importGlobalCheckpoint(checkpoint));
  }
}
