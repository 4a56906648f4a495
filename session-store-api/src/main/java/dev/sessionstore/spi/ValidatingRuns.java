package dev.sessionstore.spi;

import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Runs;
import java.util.List;
import java.util.Optional;

/** The runs of a {@link ValidatingSessionStore}: the closed check and the argument rules, then the adapter's. */
final class ValidatingRuns implements Runs {

  private final OpenGate gate;
  private final Runs adapter;

  ValidatingRuns(OpenGate gate, Runs adapter) {
    this.gate = gate;
    this.adapter = adapter;
  }

  @Override
  public Run save(RunWrite run) {
    gate.checkOpen();
    Arguments.requireNonNull("run", run);
    return adapter.save(run);
  }

  @Override
  public Optional<Run> find(String sessionId, String runId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireKey("runId", runId);
    return adapter.find(sessionId, runId);
  }

  @Override
  public List<Run> list(String sessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return adapter.list(sessionId);
  }

  @Override
  public List<Run> list(String sessionId, RunStatus status) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNull("status", status);
    return adapter.list(sessionId, status);
  }

  @Override
  public Optional<Run> active(String sessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return adapter.active(sessionId);
  }
}
