package dev.sessionstore.spi;

import dev.sessionstore.ModelCall;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewModelCall;
import java.time.Duration;
import java.util.List;

/**
 * The model-call audit of a {@link ValidatingSessionStore}: the closed check and the argument rules, then the
 * adapter's, whether or not the audit is enabled.
 */
final class ValidatingModelCallAudit implements ModelCallAudit {

  private final OpenGate gate;
  private final ModelCallAudit adapter;

  ValidatingModelCallAudit(OpenGate gate, ModelCallAudit adapter) {
    this.gate = gate;
    this.adapter = adapter;
  }

  @Override
  public boolean enabled() {
    gate.checkOpen();
    return adapter.enabled();
  }

  @Override
  public boolean record(String sessionId, NewModelCall call) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNull("call", call);
    return adapter.record(sessionId, call);
  }

  @Override
  public List<ModelCall> list(String sessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return adapter.list(sessionId);
  }

  @Override
  public int deleteOlderThan(String sessionId, Duration age) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireNonNegative("age", age);
    return adapter.deleteOlderThan(sessionId, age);
  }

  @Override
  public int deleteOlderThan(Duration age) {
    gate.checkOpen();
    Arguments.requireNonNegative("age", age);
    return adapter.deleteOlderThan(age);
  }
}
