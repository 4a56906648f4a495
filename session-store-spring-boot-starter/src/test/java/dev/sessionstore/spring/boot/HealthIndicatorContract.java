package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SessionStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

  @TempDir
  Path folder;

  @Test
  @DisplayName("the health indicator reports the in-memory store up, with its description and no schema version; it "
      + "can be turned off")
  void healthIndicator() {
    runner.run(context -> {
      Reading health = read(context);
      assertThat(health.status()).isEqualTo("UP");
      assertThat(health.details()).containsEntry("store", context.getBean(SessionStore.class).toString())
          .doesNotContainKey("schemaVersion");
    });
    runner.withPropertyValues("management.health.sessionstore.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean("sessionStoreHealthIndicator"));
  }

  @Test
  @DisplayName("the health indicator reports a JDBC store on SQLite up, with the schema version its migrations reached")
  void schemaVersion() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SessionStoreAutoConfiguration.class,
            SessionStoreHealthAutoConfiguration.class))
        .withPropertyValues("session-store.sqlite.path=" + folder.resolve("health.db")).run(context -> {
          SessionStore store = context.getBean(SessionStore.class);
          Reading health = read(context);
          assertThat(health.status()).isEqualTo("UP");
          assertThat(store.schemaVersion()).isPresent();
          assertThat(health.details()).containsEntry("store", store.toString())
              .containsEntry("schemaVersion", store.schemaVersion().getAsInt());
          assertThat(health.details().get("schemaVersion")).as("the version the file's version table records")
              .isEqualTo(recordedVersion(folder.resolve("health.db")));
        });
  }

  /** The version the SQLite file {@code database} records as migrated to, read from its version table. */
  private static int recordedVersion(Path database) throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT max(version) FROM session_store_schema_version")) {
      assertThat(row.next()).as("a row from the version table").isTrue();
      return row.getInt(1);
    }
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
