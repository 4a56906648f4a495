package dev.sessionstore.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.micrometer.ObservedSessionStore;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import dev.sessionstore.RetentionPolicy;
import java.time.Clock;
import java.time.Duration;

/**
 * The whole conformance kit on observed PostgreSQL stores (peers included), whose observations become meters:
 * observing changes no result, no exception and no guarantee of the JDBC adapter.
 */
class ObservedPostgresConformanceTest extends PostgresConformanceTest {

  @Override
  SessionStore build(HikariDataSource dataSource, String schema, Clock clock) {
    return observe(super.build(dataSource, schema, clock));
  }

  @Override
  protected SessionStore newRetainingStore(Clock clock, RetentionPolicy policy, Duration interval) {
    return observe(super.newRetainingStore(clock, policy, interval));
  }

  private static SessionStore observe(SessionStore store) {
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
    return ObservedSessionStore.builder(store).registry(registry).adapter("postgresql").build();
  }
}
