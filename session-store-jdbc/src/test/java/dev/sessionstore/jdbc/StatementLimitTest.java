package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A batch legal under {@link Limits} (up to {@value Limits#MAX_BATCH_SIZE} events of up to 4 MiB each) can exceed
 * what PostgreSQL takes in one statement (1 GB): it is refused before anything is sent, naming the limit.
 */
class StatementLimitTest {

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("A batch of 260 events of 4 MiB each is an invalid argument naming PostgreSQL's 1 GB limit, and"
      + " nothing is stored")
  void batchPastTheStatementLimitIsRefused() {
    SessionStore store = schema.store(builder -> builder);
    Json large = Json.of("\"" + "x".repeat(Limits.MAX_JSON_LENGTH - 2) + "\"");
    List<NewEvent> batch = IntStream.range(0, 260)
        .mapToObj(i -> NewEvent.of("large", large).withId("e-" + i)).toList();

    assertThatThrownBy(() -> store.events().appendAll("s", batch))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("events"))
        .hasMessageContaining("1 GB")
        .hasMessageContaining("smaller batches");
    assertThat(store.events().lastSeq("s")).isZero();
    store.events().appendAll("s", batch.subList(0, 2));
    assertThat(store.events().lastSeq("s")).as("a smaller batch of the same events").isEqualTo(2);
  }
}
