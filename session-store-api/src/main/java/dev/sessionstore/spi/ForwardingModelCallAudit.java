package dev.sessionstore.spi;

import dev.sessionstore.ModelCall;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewModelCall;
import java.time.Duration;
import java.util.List;

/**
 * {@link ModelCallAudit} that forwards every method to a delegate through an {@link Interception}; a decorator
 * overrides the methods whose values it changes and calls {@code super} to forward. Thread-safe when the delegate and
 * the interception are.
 */
public class ForwardingModelCallAudit implements ModelCallAudit {

  private final ModelCallAudit delegate;
  private final Interception interception;

  /** Forwards to {@code delegate}, every call through {@code interception}. */
  public ForwardingModelCallAudit(ModelCallAudit delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  @Override
  public boolean enabled() {
    return delegate.enabled();
  }

  @Override
  public boolean record(String sessionId, NewModelCall call) {
    return interception.around("modelCalls.record", sessionId, () -> delegate.record(sessionId, call));
  }

  @Override
  public List<ModelCall> list(String sessionId) {
    return interception.around("modelCalls.list", sessionId, () -> delegate.list(sessionId));
  }

  @Override
  public int deleteOlderThan(String sessionId, Duration age) {
    return interception.around("modelCalls.deleteOlderThan", sessionId, () -> delegate.deleteOlderThan(sessionId, age));
  }

  @Override
  public int deleteOlderThan(Duration age) {
    return interception.around("modelCalls.deleteOlderThan", null, () -> delegate.deleteOlderThan(age));
  }
}
