package dev.sessionstore.conformance.broken;

import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Runs;
import java.util.List;
import java.util.Optional;

/** Forwards every call to a delegate; broken stores override the one method they break. */
public class ForwardingRuns implements Runs {

  protected final Runs delegate;

  public ForwardingRuns(Runs delegate) {
    this.delegate = delegate;
  }

  @Override
  public Run save(RunWrite run) {
    return delegate.save(run);
  }

  @Override
  public Optional<Run> find(String sessionId, String runId) {
    return delegate.find(sessionId, runId);
  }

  @Override
  public List<Run> list(String sessionId) {
    return delegate.list(sessionId);
  }

  @Override
  public List<Run> list(String sessionId, RunStatus status) {
    return delegate.list(sessionId, status);
  }

  @Override
  public Optional<Run> active(String sessionId) {
    return delegate.active(sessionId);
  }
}
