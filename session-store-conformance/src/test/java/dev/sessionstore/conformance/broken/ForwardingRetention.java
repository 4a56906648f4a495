package dev.sessionstore.conformance.broken;

import dev.sessionstore.Retention;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;

/** Forwards every call to a delegate; broken stores override the one method they break. */
public class ForwardingRetention implements Retention {

  protected final Retention delegate;

  public ForwardingRetention(Retention delegate) {
    this.delegate = delegate;
  }

  @Override
  public RetentionReport apply(RetentionPolicy policy) {
    return delegate.apply(policy);
  }

  @Override
  public RetentionReport dryRun(RetentionPolicy policy) {
    return delegate.dryRun(policy);
  }
}
