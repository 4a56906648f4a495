package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.TestDatabase;
import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.micrometer.ObservedSessionStore;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import dev.sessionstore.springai.SessionStoreChatMemoryRepository;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Each condition and property of the starter's auto-configuration, and its bad values, on either Spring Boot line
 * (both starters run this class; the health indicator's tests are each line's own, as Boot 4 moved its API).
 */
class SessionStoreAutoConfigurationTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(SessionStoreAutoConfiguration.class,
          SessionStoreChatMemoryAutoConfiguration.class, ChatMemoryAutoConfiguration.class));

  @TempDir
  Path folder;

  @Test
  @DisplayName("without a DataSource the store is the SQLite file of session-store.sqlite.path")
  void sqliteFileByDefault() {
    Path file = folder.resolve("chat.db");
    runner.withPropertyValues("session-store.sqlite.path=" + file).run(context -> {
      assertThat(context).hasSingleBean(SessionStore.class);
      assertThat(context.getBean(SessionStore.class)).isInstanceOf(JdbcSessionStore.class);
      assertThat(Files.exists(file)).isTrue();
    });
  }

  @Test
  @DisplayName("session-store.type=memory gives the in-memory store, not observed without an ObservationRegistry")
  void memoryWhenAsked() {
    runner.withPropertyValues("session-store.type=memory").run(context ->
        assertThat(context.getBean(SessionStore.class)).isNotInstanceOf(JdbcSessionStore.class)
            .isNotInstanceOf(ObservedSessionStore.class));
  }

  @Test
  @DisplayName("with an ObservationRegistry bean the store is observed: each call is an observation")
  void observedWithARegistry() {
    TestObservationRegistry registry = TestObservationRegistry.create();
    runner.withPropertyValues("session-store.type=memory")
        .withBean(ObservationRegistry.class, () -> registry)
        .run(context -> {
          SessionStore store = context.getBean(SessionStore.class);
          assertThat(store).isInstanceOf(ObservedSessionStore.class);
          store.events().append("s", NewEvent.of("message"));
          TestObservationRegistryAssert.assertThat(registry)
              .hasSingleObservationThat().hasNameEqualTo("session.store.operation")
              .hasLowCardinalityKeyValue("operation", "events.append")
              .hasLowCardinalityKeyValue("outcome", "ok");
        });
  }

  @Test
  @DisplayName("the application's DataSource is used, with the schema and table prefix properties")
  void dataSourceWithSchemaAndPrefix() {
    String schema = TestDatabase.uniqueName("starter");
    try (HikariDataSource pool = new HikariDataSource()) {
      pool.setDataSource(TestDatabase.get().adminDataSource());
      pool.setMaximumPoolSize(4);
      runner.withBean(DataSource.class, () -> pool)
          .withPropertyValues("session-store.schema=" + schema, "session-store.table-prefix=chat_",
              "session-store.notifications=false", "session-store.retry-timeout=2s")
          .run(context -> {
            SessionStore store = context.getBean(SessionStore.class);
            assertThat(store.toString()).contains(schema).contains("chat_");
            context.getBean(ChatMemory.class).add("c", new UserMessage("hi"));
            assertThat(store.events().lastSeq("c")).isEqualTo(1);
          });
    } finally {
      TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  @Test
  @DisplayName("the repository is Spring AI's ChatMemoryRepository and its ChatMemory writes through it")
  void repositoryBeforeSpringAi() {
    runner.withPropertyValues("session-store.type=memory", "session-store.chat-memory.owner=app").run(context -> {
      assertThat(context).hasSingleBean(ChatMemoryRepository.class);
      assertThat(context.getBean(ChatMemoryRepository.class)).isInstanceOf(SessionStoreChatMemoryRepository.class);
      context.getBean(ChatMemory.class).add("c", new UserMessage("hi"));
      SessionStore store = context.getBean(SessionStore.class);
      assertThat(store.sessions().find("c").orElseThrow().metadata()).containsValue("app");
      assertThat(context.getBean(ChatMemoryRepository.class).findConversationIds()).isEqualTo(List.of("c"));
    });
  }

  @Test
  @DisplayName("the application's own SessionStore and ChatMemoryRepository win")
  void ownBeansWin() {
    SessionStore own = InMemorySessionStore.builder().build();
    runner.withBean(SessionStore.class, () -> own)
        .withBean(ChatMemoryRepository.class, InMemoryChatMemoryRepository::new)
        .run(context -> {
          assertThat(context.getBean(SessionStore.class)).isSameAs(own);
          assertThat(context.getBean(ChatMemoryRepository.class)).isInstanceOf(InMemoryChatMemoryRepository.class);
        });
  }

  @Test
  @DisplayName("a bad table prefix fails startup naming session-store.table-prefix")
  void badTablePrefix() {
    runner.withPropertyValues("session-store.sqlite.path=" + folder.resolve("x.db"),
        "session-store.table-prefix=Bad-Prefix").run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("tablePrefix");
          assertThat(context.getStartupFailure()).hasStackTraceContaining("session-store.table-prefix");
        });
  }

  @Test
  @DisplayName("a retry timeout above 10 minutes fails startup naming session-store.retry-timeout")
  void badRetryTimeout() {
    runner.withPropertyValues("session-store.sqlite.path=" + folder.resolve("x.db"),
        "session-store.retry-timeout=11m").run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).hasStackTraceContaining("session-store.retry-timeout");
        });
  }

  @Test
  @DisplayName("a bad type value fails startup naming session-store.type")
  void badType() {
    runner.withPropertyValues("session-store.type=cassandra").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasStackTraceContaining("session-store.type");
    });
  }

  @Test
  @DisplayName("session-store.type=jdbc without a DataSource fails startup saying so")
  void jdbcWithoutDataSource() {
    runner.withPropertyValues("session-store.type=jdbc").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasStackTraceContaining("session-store.type=jdbc needs a single DataSource");
    });
  }
}
