package dev.sessionstore.micrometer;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names the observations of an {@link ObservedSessionStore} and gives their key values. The default: name
 * {@value #NAME}; contextual name (a span's name) {@code session-store <operation>}; low-cardinality key values
 * {@code operation}, {@code adapter} and, once the operation ended, {@code outcome} (an {@link Outcome#tagValue()});
 * the session id only as the high-cardinality key value {@code session.id}, never a tag of a meter. Implement it
 * (or extend this one) and pass it to {@link ObservedSessionStore.Builder#convention} to change names or add keys.
 */
public class SessionStoreObservationConvention implements ObservationConvention<SessionStoreObservationContext> {

  /** The observation's name: the timer {@code session.store.operation} and its long-task timer {@code .active}. */
  public static final String NAME = "session.store.operation";

  /** The default convention's name, {@value #NAME}. */
  @Override
  public String getName() {
    return NAME;
  }

  /** {@code session-store <operation>}. */
  @Override
  public String getContextualName(SessionStoreObservationContext context) {
    return "session-store " + context.operation();
  }

  /**
   * {@code operation} and {@code adapter}, plus {@code outcome} once the operation ended: a long-task timer started
   * with the operation (waiting reads parked) has no outcome; the timer recorded at its end has one.
   */
  @Override
  public KeyValues getLowCardinalityKeyValues(SessionStoreObservationContext context) {
    KeyValues keys = KeyValues.of("operation", context.operation(), "adapter", context.adapter());
    return context.outcome() == null ? keys : keys.and("outcome", context.outcome().tagValue());
  }

  /** {@code session.id}, when the operation concerns a session. */
  @Override
  public KeyValues getHighCardinalityKeyValues(SessionStoreObservationContext context) {
    return context.sessionId() == null ? KeyValues.empty() : KeyValues.of("session.id", context.sessionId());
  }

  /** Whether {@code context} is one of this store's: only {@link SessionStoreObservationContext}s are. */
  @Override
  public boolean supportsContext(Observation.Context context) {
    return context instanceof SessionStoreObservationContext;
  }
}
