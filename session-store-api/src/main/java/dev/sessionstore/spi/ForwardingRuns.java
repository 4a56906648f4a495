package dev.sessionstore.spi;

import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Runs;
import java.util.List;
import java.util.Optional;

/**
 * {@link Runs} that forwards every method to a delegate through an {@link Interception}; a decorator overrides the
 * methods whose values it changes and calls {@code super} to forward. Thread-safe when the delegate and the
 * interception are.
 */
public class ForwardingRuns implements Runs {

  private final Runs delegate;
  private final Interception interception;

  /** Forwards to {@code delegate}, every call through {@code interception}. */
  public ForwardingRuns(Runs delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  @Override
  public Run save(RunWrite run) {
    return interception.around("runs.save", run == null ? null : run.sessionId(), () -> delegate.save(run));
  }

  @Override
  public Optional<Run> find(String sessionId, String runId) {
    return interception.around("runs.find", sessionId, () -> delegate.find(sessionId, runId));
  }

  @Override
  public List<Run> list(String sessionId) {
    return interception.around("runs.list", sessionId, () -> delegate.list(sessionId));
  }

  @Override
  public List<Run> list(String sessionId, RunStatus status) {
    return interception.around("runs.list", sessionId, () -> delegate.list(sessionId, status));
  }

  @Override
  public Optional<Run> active(String sessionId) {
    return interception.around("runs.active", sessionId, () -> delegate.active(sessionId));
  }
}
