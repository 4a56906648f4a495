package dev.sessionstore.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.ClosedStoreContract;
import dev.sessionstore.conformance.ConcurrencyContract;
import dev.sessionstore.conformance.KitGroups;
import dev.sessionstore.conformance.SharedBackendContract;
import dev.sessionstore.conformance.ToolCallWaitContract;
import dev.sessionstore.conformance.WaitingReadContract;
import dev.sessionstore.micrometer.ObservedSessionStore;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import dev.sessionstore.RetentionPolicy;
import java.time.Clock;
import java.time.Duration;

/**
 * The kit's groups that cross processes or wait, on observed PostgreSQL stores (peers included) whose observations
 * become meters: observing changes no result, no exception and no guarantee of the JDBC adapter. The decorator
 * transforms no value, so every other group checks nothing here that the whole kit on the observed in-memory store
 * (session-store-micrometer) and on the plain PostgreSQL store does not; what only PostgreSQL brings through it is
 * waits woken by another process's notification and a second instance's writes.
 */
@KitGroups(value = {SharedBackendContract.class, WaitingReadContract.class, ToolCallWaitContract.class,
    ConcurrencyContract.class, ClosedStoreContract.class},
    reason = "observing transforms no value: the whole kit runs on the observed in-memory store and on the plain"
        + " PostgreSQL store")
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
