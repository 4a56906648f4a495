package dev.sessionstore.micrometer;

import dev.sessionstore.spi.Interception;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.function.Supplier;

/**
 * One observation around each operation: started before the call, in scope while it runs (so spans the adapter's
 * driver opens nest under it), stopped after it with its {@link Outcome}; a thrown exception is also reported as the
 * observation's error and rethrown unchanged. While the registry is a no-op, the call runs alone. Thread-safe.
 */
final class ObservingInterception implements Interception {

  private static final SessionStoreObservationConvention DEFAULT = new SessionStoreObservationConvention();

  private final ObservationRegistry registry;
  private final SessionStoreObservationConvention convention;
  private final String adapter;

  ObservingInterception(ObservationRegistry registry, SessionStoreObservationConvention convention, String adapter) {
    this.registry = registry;
    this.convention = convention;
    this.adapter = adapter;
  }

  @Override
  public <T> T around(String operation, String sessionId, Supplier<T> call) {
    if (registry.isNoop()) {
      return call.get();
    }
    SessionStoreObservationContext context = new SessionStoreObservationContext(operation, sessionId, adapter);
    Observation observation = Observation.createNotStarted(convention, DEFAULT, () -> context, registry).start();
    try (Observation.Scope scope = observation.openScope()) {
      T result = call.get();
      context.outcome(Outcome.of(result));
      return result;
    } catch (RuntimeException | Error failure) {
      context.outcome(Outcome.ofFailure(failure));
      observation.error(failure);
      throw failure;
    } finally {
      observation.stop();
    }
  }
}
