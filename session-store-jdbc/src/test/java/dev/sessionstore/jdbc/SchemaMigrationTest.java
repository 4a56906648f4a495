package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The store creates its schema once, records the version, and leaves a migrated schema alone. */
class SchemaMigrationTest {

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("Building creates the schema and records version 1 in the version table")
  void recordsTheVersion() {
    schema.store(builder -> builder);

    assertThat(schema.queryValue("SELECT string_agg(version || ':' || description, ',') FROM \""
        + schema.name() + "\".session_store_schema_version")).isEqualTo("1:schema");
  }

  @Test
  @DisplayName("Building again on a migrated schema changes nothing and keeps the data")
  void remigrationIsIdempotent() {
    SessionStore first = schema.store(builder -> builder);
    first.events().append("s", NewEvent.of("message"));
    first.close();

    SessionStore second = schema.store(builder -> builder);

    assertThat(second.events().latestSeq("s")).isEqualTo(1);
    assertThat(schema.queryValue("SELECT count(*) FROM \"" + schema.name() + "\".session_store_schema_version"))
        .isEqualTo(1L);
  }

  @Test
  @DisplayName("Eight stores starting at once on a fresh schema all start, and the schema is migrated once")
  void concurrentStartsMigrateOnce() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(8);
    List<Future<SessionStore>> starts = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      starts.add(threads.submit((Callable<SessionStore>) () -> schema.store(builder -> builder)));
    }
    for (Future<SessionStore> start : starts) {
      start.get(1, TimeUnit.MINUTES).events().append("s", NewEvent.of("message"));
    }
    threads.shutdown();

    assertThat(schema.queryValue("SELECT count(*) FROM \"" + schema.name() + "\".session_store_schema_version"))
        .isEqualTo(1L);
  }

  @Test
  @DisplayName("With createSchema(false) a schema without the tables fails the build, naming the fix")
  void missingSchemaFailsWithoutCreateSchema() {
    assertThatThrownBy(() -> schema.store(builder -> builder.createSchema(false)))
        .isInstanceOf(StoreFailureException.class)
        .hasMessageContaining("version 0")
        .hasMessageContaining("createSchema(true)");
  }
}
