package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.TestDatabase;
import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.micrometer.ObservedSessionStore;
import dev.sessionstore.micrometer.SessionStoreMetrics;
import dev.sessionstore.springai.SessionStoreChatMemoryRepository;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * What the application chose decides what the starter does: its {@code spring.datasource.url} is never ignored, and
 * each optional integration (the in-memory store, observation, the Spring AI bridge) is active only with its classes
 * on the application's class path, which {@link FilteredClassLoader} takes away as a user's build leaves them out.
 * Both starters run this class, each with its own Spring Boot line's {@code DataSourceAutoConfiguration}.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApplicationChoicesTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(SessionStoreAutoConfiguration.class,
          SessionStoreChatMemoryAutoConfiguration.class, SessionStoreMetricsAutoConfiguration.class,
          ChatMemoryAutoConfiguration.class));

  @TempDir
  Path folder;

  @Test
  @DisplayName("spring.datasource.url without a DataSource bean fails startup naming spring-boot-starter-jdbc")
  void datasourceUrlWithoutDataSourceFails() {
    Path file = folder.resolve("not-used.db");
    runner.withPropertyValues("spring.datasource.url=" + postgres().getUrl(), "session-store.sqlite.path=" + file)
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure())
              .hasStackTraceContaining("spring.datasource.url is set, but the application has no DataSource bean")
              .hasStackTraceContaining("add the dependency org.springframework.boot:spring-boot-starter-jdbc");
          assertThat(file).doesNotExist();
        });
  }

  @Test
  @DisplayName("spring.datasource.url with Spring Boot's DataSource: the store is on that database, and says so")
  void datasourceUrlWithDataSourceIsTheStoresDatabase(CapturedOutput output) {
    PGSimpleDataSource postgres = postgres();
    List<String> properties = new ArrayList<>(List.of("spring.datasource.url=" + postgres.getUrl(),
        "session-store.schema=application_choices", "session-store.sqlite.path=" + folder.resolve("not-used.db")));
    if (postgres.getUser() != null) {
      properties.add("spring.datasource.username=" + postgres.getUser());
      properties.add("spring.datasource.password=" + postgres.getPassword());
    }
    runner.withConfiguration(AutoConfigurations.of(bootDataSourceAutoConfiguration()))
        .withPropertyValues(properties.toArray(String[]::new))
        .run(context -> {
          assertThat(context).hasNotFailed();
          String store = context.getBean(SessionStore.class).toString();
          assertThat(store).contains("jdbc:postgresql://").contains("application_choices");
          assertThat(output).contains("session-store: " + store);
          assertThat(folder.resolve("not-used.db")).doesNotExist();
        });
  }

  @Test
  @DisplayName("session-store.type=memory without session-store-memory fails startup naming the artifact")
  void memoryWithoutTheModuleFails() {
    runner.withClassLoader(new FilteredClassLoader(InMemorySessionStore.class))
        .withPropertyValues("session-store.type=memory")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).hasStackTraceContaining(
              "session-store.type=memory needs the in-memory store, which is not on the class path: add the"
                  + " dependency dev.sessionstore:session-store-memory");
        });
  }

  @Test
  @DisplayName("without session-store-micrometer the store is neither observed nor metered, and starts")
  void withoutMicrometerModuleNoObservation() {
    runner.withClassLoader(new FilteredClassLoader(ObservedSessionStore.class, SessionStoreMetrics.class))
        .withBean(ObservationRegistry.class, TestObservationRegistry::create)
        .withPropertyValues("session-store.sqlite.path=" + folder.resolve("plain.db"))
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(SessionStore.class)).isInstanceOf(JdbcSessionStore.class);
          assertThat(context).doesNotHaveBean(SessionStoreMetricsAutoConfiguration.class);
        });
  }

  @Test
  @DisplayName("Spring AI without the bridge: no repository of ours, Spring AI's own, and a warning naming the bridge")
  void springAiWithoutTheBridgeWarns(CapturedOutput output) {
    runner.withClassLoader(new FilteredClassLoader(SessionStoreChatMemoryRepository.class))
        .withPropertyValues("session-store.sqlite.path=" + folder.resolve("no-bridge.db"))
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(SessionStoreChatMemoryRepository.class);
          assertThat(context.getBean(ChatMemoryRepository.class)).isInstanceOf(InMemoryChatMemoryRepository.class);
          assertThat(output).contains("Spring AI is on the class path without session-store's chat memory repository")
              .contains("add dev.sessionstore:session-store-spring-ai (Spring AI 1.x, Spring Boot 3) or"
                  + " dev.sessionstore:session-store-spring-ai-2 (Spring AI 2.x, Spring Boot 4)");
        });
  }

  private static PGSimpleDataSource postgres() {
    return TestDatabase.get().adminDataSource();
  }

  /** Spring Boot's own DataSource auto-configuration, of whichever line this starter is built for. */
  private static Class<?> bootDataSourceAutoConfiguration() {
    for (String name : List.of("org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")) {
      try {
        return Class.forName(name);
      } catch (ClassNotFoundException otherLine) {
        // the other Spring Boot line's name
      }
    }
    throw new AssertionError("no Spring Boot DataSourceAutoConfiguration on the test class path");
  }
}
