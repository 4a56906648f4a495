package dev.sessionstore.crypto;

import dev.sessionstore.ModelCall;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.spi.ForwardingModelCallAudit;
import dev.sessionstore.spi.Interception;
import java.util.List;

/** The model-call audit with each row's context and usage sealed. */
final class SealingModelCallAudit extends ForwardingModelCallAudit {

  private final Values values;

  SealingModelCallAudit(ModelCallAudit delegate, Values values) {
    super(delegate, Interception.none());
    this.values = values;
  }

  @Override
  public boolean record(String sessionId, NewModelCall call) {
    return super.record(sessionId, values.seal(sessionId, call));
  }

  @Override
  public List<ModelCall> list(String sessionId) {
    return Values.map(super.list(sessionId), values::open);
  }
}
