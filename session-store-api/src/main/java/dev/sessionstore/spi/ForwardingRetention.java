package dev.sessionstore.spi;

import dev.sessionstore.Retention;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;

/**
 * {@link Retention} that forwards every method to a delegate through an {@link Interception}; a decorator overrides
 * the methods whose values it changes and calls {@code super} to forward. Thread-safe when the delegate and the
 * interception are.
 */
public class ForwardingRetention implements Retention {

  private final Retention delegate;
  private final Interception interception;

  /** Forwards to {@code delegate}, every call through {@code interception}. */
  public ForwardingRetention(Retention delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  @Override
  public RetentionReport apply(RetentionPolicy policy) {
    return interception.around("retention.apply", null, () -> delegate.apply(policy));
  }

  @Override
  public RetentionReport dryRun(RetentionPolicy policy) {
    return interception.around("retention.dryRun", null, () -> delegate.dryRun(policy));
  }
}
