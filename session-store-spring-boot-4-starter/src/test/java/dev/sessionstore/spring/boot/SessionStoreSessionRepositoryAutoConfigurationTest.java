package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.springai.session.SessionStoreSessionRepository;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springaicommunity.session.autoconfigure.SessionServiceAutoConfiguration;
import org.springframework.ai.session.DefaultSessionService;
import org.springframework.ai.session.InMemorySessionRepository;
import org.springframework.ai.session.SessionRepository;
import org.springframework.ai.session.SessionService;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Each condition and property of {@link SessionStoreSessionRepositoryAutoConfiguration}. */
class SessionStoreSessionRepositoryAutoConfigurationTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(SessionStoreAutoConfiguration.class,
          SessionStoreSessionRepositoryAutoConfiguration.class, SessionServiceAutoConfiguration.class))
      .withPropertyValues("session-store.type=memory");

  @Test
  @DisplayName("with the bridge on the class path the SessionRepository is the store's, and SessionService runs on it")
  void repositoryOnTheStore() {
    runner.run(context -> {
      assertThat(context).hasSingleBean(SessionRepository.class);
      assertThat(context.getBean(SessionRepository.class)).isInstanceOf(SessionStoreSessionRepository.class);
      assertThat(context.getBean(SessionService.class)).isInstanceOf(DefaultSessionService.class);
    });
  }

  @Test
  @DisplayName("a SessionRepository of the application wins")
  void applicationRepositoryWins() {
    runner.withUserConfiguration(OwnRepository.class).run(context -> {
      assertThat(context).hasSingleBean(SessionRepository.class);
      assertThat(context.getBean(SessionRepository.class)).isInstanceOf(InMemorySessionRepository.class);
    });
  }

  @Test
  @DisplayName("without the bridge on the class path there is no repository")
  void withoutTheBridge() {
    runner.withClassLoader(new FilteredClassLoader(SessionStoreSessionRepository.class))
        .run(context -> assertThat(context).doesNotHaveBean(SessionRepository.class));
  }

  @Test
  @DisplayName("the Boot 4 imports file keeps every shared auto-configuration and adds the SessionRepository one")
  void importsFileKeepsTheSharedEntries() throws IOException {
    String name = "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports";
    List<String> shared = Files.readAllLines(Path.of("../session-store-spring-boot-starter/src/main/resources", name));
    try (InputStream own = getClass().getClassLoader().getResourceAsStream(name)) {
      List<String> lines = new String(own.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
      assertThat(lines).containsAll(shared)
          .contains(SessionStoreSessionRepositoryAutoConfiguration.class.getName());
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnRepository {

    @Bean
    SessionRepository ownRepository() {
      return InMemorySessionRepository.builder().build();
    }
  }
}
