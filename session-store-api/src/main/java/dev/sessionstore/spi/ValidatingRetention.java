package dev.sessionstore.spi;

import dev.sessionstore.Retention;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;

/** The retention of a {@link ValidatingSessionStore}: the closed check and the argument rules, then the adapter's. */
final class ValidatingRetention implements Retention {

  private final OpenGate gate;
  private final Retention adapter;

  ValidatingRetention(OpenGate gate, Retention adapter) {
    this.gate = gate;
    this.adapter = adapter;
  }

  @Override
  public RetentionReport apply(RetentionPolicy policy) {
    gate.checkOpen();
    Arguments.requireNonNull("policy", policy);
    return adapter.apply(policy);
  }

  @Override
  public RetentionReport dryRun(RetentionPolicy policy) {
    gate.checkOpen();
    Arguments.requireNonNull("policy", policy);
    return adapter.dryRun(policy);
  }
}
