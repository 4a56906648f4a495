package dev.sessionstore.micrometer;

import io.micrometer.observation.Observation;

/**
 * What an observation of one store operation knows: the operation's name, the session it concerns, the adapter's
 * name and, once it ended, its {@link Outcome}. A {@link SessionStoreObservationConvention} turns it into key values.
 * One context per operation, used by the thread that runs it.
 */
public final class SessionStoreObservationContext extends Observation.Context {

  private final String operation;
  private final String sessionId;
  private final String adapter;
  private Outcome outcome;

  /**
   * The context of {@code operation} ({@code events.append}, ..., see {@link dev.sessionstore.spi.Interception}) on
   * {@code sessionId} (null when it concerns none) of the store named {@code adapter}.
   */
  public SessionStoreObservationContext(String operation, String sessionId, String adapter) {
    this.operation = operation;
    this.sessionId = sessionId;
    this.adapter = adapter;
  }

  /** The operation's name: {@code <aggregate>.<method>} or {@code commit}. */
  public String operation() {
    return operation;
  }

  /** The session the operation concerns, or null. */
  public String sessionId() {
    return sessionId;
  }

  /** The adapter's name, as given to the observed store. */
  public String adapter() {
    return adapter;
  }

  /** How the operation ended, or null while it runs. */
  public Outcome outcome() {
    return outcome;
  }

  /** Records how the operation ended. */
  void outcome(Outcome ended) {
    this.outcome = ended;
  }
}
