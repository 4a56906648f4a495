package dev.sessionstore.conformance.broken;

import dev.sessionstore.ModelCall;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewModelCall;
import java.time.Duration;
import java.util.List;

/** Forwards every call to a delegate; broken stores override the one method they break. */
public class ForwardingModelCallAudit implements ModelCallAudit {

  protected final ModelCallAudit delegate;

  public ForwardingModelCallAudit(ModelCallAudit delegate) {
    this.delegate = delegate;
  }

  @Override
  public boolean enabled() {
    return delegate.enabled();
  }

  @Override
  public boolean record(String sessionId, NewModelCall call) {
    return delegate.record(sessionId, call);
  }

  @Override
  public List<ModelCall> list(String sessionId) {
    return delegate.list(sessionId);
  }

  @Override
  public int deleteOlderThan(String sessionId, Duration age) {
    return delegate.deleteOlderThan(sessionId, age);
  }

  @Override
  public int deleteOlderThan(Duration age) {
    return delegate.deleteOlderThan(age);
  }
}
