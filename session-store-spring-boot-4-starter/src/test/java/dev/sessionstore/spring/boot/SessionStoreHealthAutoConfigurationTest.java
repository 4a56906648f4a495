package dev.sessionstore.spring.boot;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationContext;

/** The health indicator on Spring Boot 4's health API ({@code org.springframework.boot.health.contributor}). */
class SessionStoreHealthAutoConfigurationTest extends HealthIndicatorContract {

  @Override
  Reading read(ApplicationContext context) {
    Health health = context.getBean("sessionStoreHealthIndicator", HealthIndicator.class).health();
    return new Reading(health.getStatus().getCode(), health.getDetails());
  }
}
