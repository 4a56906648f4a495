package dev.sessionstore.spring.boot;

import dev.sessionstore.jdbc.TestDatabase;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The chat application on the application's PostgreSQL {@code DataSource}, in a schema of its own. */
@SpringBootTest(classes = {ChatApplication.class, PostgresChatApplicationTest.Postgres.class})
@DirtiesContext
class PostgresChatApplicationTest extends ChatApplicationContract {

  private static final Map<String, Object> PROPERTIES = Map.of("session-store.schema",
      TestDatabase.uniqueName("chatapp"));

  /** The application's data source. */
  @Configuration(proxyBeanMethods = false)
  static class Postgres {

    @Bean
    DataSource dataSource() {
      return TestDatabase.get().adminDataSource();
    }
  }

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    PROPERTIES.forEach((key, value) -> registry.add(key, () -> value));
  }

  @AfterAll
  static void dropSchema() {
    TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + PROPERTIES.get("session-store.schema") + " CASCADE");
  }

  @Override
  Map<String, Object> properties() {
    return PROPERTIES;
  }

  @Override
  Class<?>[] sources() {
    return new Class<?>[] {ChatApplication.class, Postgres.class};
  }
}
