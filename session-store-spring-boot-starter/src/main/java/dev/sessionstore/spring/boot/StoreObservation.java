package dev.sessionstore.spring.boot;

import dev.sessionstore.SessionStore;
import dev.sessionstore.micrometer.ObservedSessionStore;
import io.micrometer.observation.ObservationRegistry;

/**
 * The store observed through the application's {@link ObservationRegistry}: the only class of the starter's store
 * configuration that names session-store-micrometer, an optional dependency, loaded only once the auto-configuration
 * found it on the class path.
 */
final class StoreObservation {

  private StoreObservation() {
  }

  /** {@code store} behind an {@link ObservedSessionStore} reporting to {@code registry}. */
  static SessionStore observe(SessionStore store, ObservationRegistry registry) {
    return ObservedSessionStore.builder(store).registry(registry).build();
  }
}
