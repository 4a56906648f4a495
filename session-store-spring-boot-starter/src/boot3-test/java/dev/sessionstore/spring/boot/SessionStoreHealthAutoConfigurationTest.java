package dev.sessionstore.spring.boot;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.context.ApplicationContext;

/** The health indicator on Spring Boot 3's health API ({@code org.springframework.boot.actuate.health}). */
class SessionStoreHealthAutoConfigurationTest extends HealthIndicatorContract {

  @Override
  Reading read(ApplicationContext context) {
    Health health = context.getBean("sessionStoreHealthIndicator", HealthIndicator.class).health();
    return new Reading(health.getStatus().getCode(), health.getDetails());
  }
}
