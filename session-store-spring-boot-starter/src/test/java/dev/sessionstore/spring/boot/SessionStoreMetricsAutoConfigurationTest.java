package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.micrometer.SessionStoreMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Each condition of the metrics auto-configuration, on either Spring Boot line (both starters run this class; the
 * binding by Spring Boot's own metrics auto-configuration is each line's own test, as Boot 4 moved it).
 */
class SessionStoreMetricsAutoConfigurationTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(SessionStoreAutoConfiguration.class,
          SessionStoreMetricsAutoConfiguration.class))
      .withPropertyValues("session-store.type=memory");

  @Test
  @DisplayName("with a MeterRegistry bean there is a SessionStoreMetrics bean, whose meters follow the store")
  void metricsWithARegistry() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    runner.withBean(MeterRegistry.class, () -> registry).run(context -> {
      assertThat(context).hasSingleBean(SessionStoreMetrics.class);
      context.getBean(SessionStoreMetrics.class).bindTo(registry); // what Spring Boot's metrics configuration does
      SessionStore store = context.getBean(SessionStore.class);
      CompletableFuture<EventPage> read = CompletableFuture.supplyAsync(
          () -> store.events().await("s", EventQuery.all(), Duration.ofSeconds(30)));
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (registry.get("session.store.reads.parked").gauge().value() < 1) {
        assertThat(System.nanoTime()).as("the read parked within 10 s").isLessThan(end);
        Thread.sleep(5);
      }

      store.events().append("s", NewEvent.of("message"));

      assertThat(read.get(10, TimeUnit.SECONDS).items()).hasSize(1);
      assertThat(registry.get("session.store.reads.wake").tag("adapter", "InMemorySessionStore").timer().count())
          .isEqualTo(1);
    });
  }

  @Test
  @DisplayName("without a MeterRegistry bean there is none")
  void noMetricsWithoutARegistry() {
    runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SessionStoreMetrics.class));
  }

  @Test
  @DisplayName("without micrometer-core on the class path there is none, and the context starts")
  void noMetricsWithoutMicrometerCore() {
    runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
        .run(context -> assertThat(context).hasNotFailed().hasSingleBean(SessionStore.class)
            .doesNotHaveBean(SessionStoreMetrics.class));
  }

  @Test
  @DisplayName("an application's own SessionStoreMetrics bean wins")
  void ownMetricsWin() {
    SessionStore other = InMemorySessionStore.builder().build();
    SessionStoreMetrics own = SessionStoreMetrics.of(other, "own");
    runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(SessionStoreMetrics.class, () -> own)
        .run(context -> assertThat(context.getBean(SessionStoreMetrics.class)).isSameAs(own));
    other.close();
  }
}
