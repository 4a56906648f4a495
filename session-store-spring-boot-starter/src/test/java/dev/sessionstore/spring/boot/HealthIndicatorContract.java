package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SessionStore;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * The health indicator, on either Spring Boot line: each line's subclass reads its indicator through that line's
 * health API (Boot 4 moved it to other packages).
 */
abstract class HealthIndicatorContract {

  /** What an indicator reported: the status code ({@code UP}, {@code DOWN}) and the details. */
  record Reading(String status, Map<String, Object> details) {
  }

  /** Asks the {@code sessionStoreHealthIndicator} bean of {@code context} for the health now. */
  abstract Reading read(ApplicationContext context);

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(SessionStoreAutoConfiguration.class,
          SessionStoreHealthAutoConfiguration.class))
      .withPropertyValues("session-store.type=memory");

  @Test
  @DisplayName("the health indicator reports the store up, with its description; it can be turned off")
  void healthIndicator() {
    runner.run(context -> {
      Reading health = read(context);
      assertThat(health.status()).isEqualTo("UP");
      assertThat(health.details()).containsEntry("store", context.getBean(SessionStore.class).toString());
    });
    runner.withPropertyValues("management.health.sessionstore.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean("sessionStoreHealthIndicator"));
  }

  @Test
  @DisplayName("the health indicator reports a closed store down")
  void healthDown() {
    runner.run(context -> {
      context.getBean(SessionStore.class).close();
      assertThat(read(context).status()).isEqualTo("DOWN");
    });
  }
}
