package dev.sessionstore.conformance.broken;

import dev.sessionstore.Archives;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.SessionArchive;
import java.util.List;
import java.util.Optional;

/** Forwards every call to a delegate; broken stores override the one method they break. */
public class ForwardingArchives implements Archives {

  protected final Archives delegate;

  public ForwardingArchives(Archives delegate) {
    this.delegate = delegate;
  }

  @Override
  public Optional<SessionArchive> export(String sessionId) {
    return delegate.export(sessionId);
  }

  @Override
  public ImportOutcome importSession(SessionArchive archive) {
    return delegate.importSession(archive);
  }

  @Override
  public List<Checkpoint> globalCheckpoints() {
    return delegate.globalCheckpoints();
  }

  @Override
  public ImportOutcome importGlobalCheckpoint(Checkpoint checkpoint) {
    return delegate.importGlobalCheckpoint(checkpoint);
  }
}
