package dev.sessionstore.springai.session;

import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.micrometer.ObservedSessionStore;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.ai.session.SessionRepository;

/**
 * {@link SessionStoreSessionRepository} on an observed store (the in-memory adapter behind
 * {@link ObservedSessionStore}, observations recorded as meters): the decorator changes nothing the contract checks.
 */
class ObservedSessionRepositoryTest extends SessionRepositoryContract {

  @Override
  protected SessionRepository newRepository() {
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
    return SessionStoreSessionRepository.of(
        ObservedSessionStore.builder(InMemorySessionStore.builder().build()).registry(registry).build());
  }
}
