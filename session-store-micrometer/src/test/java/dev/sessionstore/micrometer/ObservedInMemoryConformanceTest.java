package dev.sessionstore.micrometer;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;

/**
 * The whole conformance kit on an observed in-memory store whose observations become meters: observing changes no
 * result, no exception and no guarantee.
 */
class ObservedInMemoryConformanceTest extends SessionStoreConformance {

  @Override
  protected SessionStore newStore(Clock clock) {
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
    return ObservedSessionStore.builder(InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build())
        .registry(registry).adapter("memory").build();
  }
}
