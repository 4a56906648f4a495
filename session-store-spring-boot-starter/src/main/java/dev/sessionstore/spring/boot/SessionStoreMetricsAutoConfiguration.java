package dev.sessionstore.spring.boot;

import dev.sessionstore.SessionStore;
import dev.sessionstore.micrometer.SessionStoreMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With Micrometer's {@link MeterRegistry} and session-store-micrometer (an optional dependency: the application adds
 * {@code dev.sessionstore:session-store-micrometer}) on the class path and a registry bean in the context (Spring
 * Boot's Actuator makes one), a {@link SessionStoreMetrics} bean over the {@link SessionStore} bean: the meters of what the
 * store does inside itself ({@code session.store.retries}, {@code session.store.outcomes.settled},
 * {@code session.store.deadlines.fired}, {@code session.store.reads.parked}, {@code session.store.reads.wake}), which
 * Spring Boot binds to every registry as it binds any {@code MeterBinder} bean. An application's own
 * {@code SessionStoreMetrics} bean wins; the subscription ends with the context.
 *
 * <p>One source for both Spring Boot lines: it runs after the metrics auto-configurations of either (Boot 4 moved
 * them to {@code spring-boot-micrometer-metrics}), named by string so that neither line's class is needed to load it,
 * as Spring Boot's own binder auto-configurations run after them.
 */
@AutoConfiguration(after = SessionStoreAutoConfiguration.class, afterName = {
    "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",                  // Boot 3
    "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",   // Boot 3
    "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",                // Boot 4
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration", // Boot 4
    "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass({MeterRegistry.class, SessionStoreMetrics.class})
@ConditionalOnBean({SessionStore.class, MeterRegistry.class})
public class SessionStoreMetricsAutoConfiguration {

  /** The store's meters, tagged {@code adapter} with its adapter's class name, as its observations are. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public SessionStoreMetrics sessionStoreMetrics(SessionStore store) {
    return SessionStoreMetrics.of(store);
  }
}
