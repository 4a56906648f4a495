package dev.sessionstore.micrometer;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.memory.InMemorySessionStore;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;

/**
 * The whole conformance kit on an observed in-memory store whose observations become meters: observing changes no
 * result, no exception and no guarantee.
 */
class ObservedInMemoryConformanceTest extends SessionStoreConformance {

  @Override
  protected SessionStore newStore(Clock clock) {
    return observe(InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build());
  }

  @Override
  protected SessionStore newRetainingStore(Clock clock, RetentionPolicy policy, Duration interval) {
    return observe(InMemorySessionStore.builder().clock(clock).modelCallAudit(true).retention(policy, interval).build());
  }

  private static SessionStore observe(SessionStore plain) {
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
    return ObservedSessionStore.builder(plain).registry(registry).adapter("memory").build();
  }
}
