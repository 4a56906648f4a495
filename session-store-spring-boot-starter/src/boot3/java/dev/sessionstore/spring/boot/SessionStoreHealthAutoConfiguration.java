package dev.sessionstore.spring.boot;

import dev.sessionstore.SessionStore;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With Spring Boot Actuator present: a health indicator {@code sessionStore}, up when the store answers a read
 * (with the store's description), down with the error otherwise. Turned off by
 * {@code management.health.sessionstore.enabled=false}. Spring Boot 3's health API; the Boot 4 starter has its own.
 */
@AutoConfiguration(after = SessionStoreAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(SessionStore.class)
@ConditionalOnEnabledHealthIndicator("sessionstore")
public class SessionStoreHealthAutoConfiguration {

  /** The indicator: a one-session listing, which touches the store's tables. */
  @Bean
  @ConditionalOnMissingBean(name = "sessionStoreHealthIndicator")
  public HealthIndicator sessionStoreHealthIndicator(SessionStore store) {
    return () -> {
      RuntimeException failure = StoreProbe.failure(store);
      return (failure == null ? Health.up() : Health.down(failure)).withDetail("store", store.toString()).build();
    };
  }
}
