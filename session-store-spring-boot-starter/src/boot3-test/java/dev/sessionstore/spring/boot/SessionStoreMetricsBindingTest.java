package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.SessionStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * With Spring Boot 3's own metrics auto-configuration, the registry it makes gets the store's meters with no code:
 * the starter's {@code SessionStoreMetrics} bean is bound like any {@code MeterBinder}.
 */
class SessionStoreMetricsBindingTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
          CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
          SessionStoreAutoConfiguration.class, SessionStoreMetricsAutoConfiguration.class))
      .withPropertyValues("session-store.type=memory");

  @Test
  @DisplayName("Spring Boot's registry counts a deadline the store fired")
  void bootsRegistryCountsAFiredDeadline() {
    runner.run(context -> {
      MeterRegistry registry = context.getBean(MeterRegistry.class);
      SessionStore store = context.getBean(SessionStore.class);
      store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
      store.toolCalls().expireAt("s", "c", Instant.now().plus(Duration.ofMillis(20)));

      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (registry.get("session.store.deadlines.fired").counter().count() < 1) {
        assertThat(System.nanoTime()).as("the deadline counted within 10 s").isLessThan(end);
        Thread.sleep(5);
      }
      assertThat(registry.get("session.store.reads.parked").tag("adapter", "InMemorySessionStore").gauge().value())
          .isZero();
    });
  }
}
