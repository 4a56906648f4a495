package dev.sessionstore.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.micrometer.ObservedSessionStore;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;

/**
 * The whole conformance kit on observed PostgreSQL stores (peers included), whose observations become meters:
 * observing changes no result, no exception and no guarantee of the JDBC adapter.
 */
class ObservedPostgresConformanceTest extends PostgresConformanceTest {

  @Override
  SessionStore build(HikariDataSource dataSource, String schema, Clock clock) {
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
    return ObservedSessionStore.builder(super.build(dataSource, schema, clock))
        .registry(registry).adapter("postgresql").build();
  }
}
