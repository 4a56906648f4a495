package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What PostgreSQL itself holds: exact numbers in jsonb, documents that read back within the limits, the range of
 * timestamps.
 */
class JsonbStorageTest {

  private final TestSchema schema = new TestSchema();
  private SessionStore store;

  @BeforeEach
  void openStore() {
    store = schema.store(builder -> builder);
  }

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("Big integers and long decimals are stored in jsonb digit for digit")
  void numbersAreStoredExactly() {
    String big = "123456789012345678901234567890123456789";
    String decimal = "0.100000000000000000000000000000000000001";
    Json payload = Json.of("{\"big\":" + big + ",\"decimal\":" + decimal + ",\"tiny\":-1e-300}");

    Event appended = store.events().append("s", NewEvent.of("numbers", payload));

    assertThat(schema.queryValue("SELECT payload ->> 'big' FROM \"" + schema.name() + "\".session_store_events"))
        .isEqualTo(big);
    assertThat(schema.queryValue("SELECT payload ->> 'decimal' FROM \"" + schema.name()
        + "\".session_store_events")).isEqualTo(decimal);
    assertThat(schema.queryValue("SELECT (payload ->> 'tiny')::numeric = -1e-300 FROM \"" + schema.name()
        + "\".session_store_events")).isEqualTo(true);
    assertThat(store.events().find("s", appended.id()).orElseThrow().payload()).isEqualTo(payload);
  }

  @Test
  @DisplayName("A document at the length bound reads back although jsonb prints it with extra spaces")
  void maximalDocumentsReadBack() {
    StringBuilder text = new StringBuilder("[1");
    while (text.length() < Limits.MAX_JSON_LENGTH - 2) {
      text.append(",1");
    }
    Json payload = Json.of(text.append(']').toString());

    Event appended = store.events().append("s", NewEvent.of("large", payload));

    assertThat(store.events().find("s", appended.id()).orElseThrow().payload()).isEqualTo(payload);
  }

  @Test
  @DisplayName("Spaces inside strings survive the read")
  void spacesInStringsSurvive() {
    Json payload = Json.of("{\"text\":\"a  b, \\\"c\\\": d \\\\ \",\"list\":[\" \", \"x\"]}");

    Event appended = store.events().append("s", NewEvent.of("text", payload));

    assertThat(store.events().find("s", appended.id()).orElseThrow().payload().text())
        .isEqualTo("{\"list\":[\" \",\"x\"],\"text\":\"a  b, \\\"c\\\": d \\\\ \"}");
  }

  @Test
  @DisplayName("Event timestamps outside what is stored exactly are rejected before anything is written")
  void unstorableTimestampsAreRejected() {
    List<Instant> unstorables =
        List.of(Instant.parse("+300000-01-01T00:00:00Z"), Instant.parse("-0001-06-01T00:00:00Z"));
    for (Instant unstorable : unstorables) {
      NewEvent event = NewEvent.of("odd").withTimestamp(unstorable);

      assertThatThrownBy(() -> store.events().append("s", event))
          .isInstanceOf(InvalidArgumentException.class)
          .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("event.timestamp"));
    }
    assertThat(store.sessions().find("s")).isEmpty();
  }

  @Test
  @DisplayName("A since filter beyond what timestamptz holds matches everything before it and nothing after it")
  void sinceBeyondTheStorableRange() {
    store.events().append("s", NewEvent.of("message"));

    assertThat(store.events().read("s", EventQuery.all().since(Instant.MIN)).items()).hasSize(1);
    assertThat(store.events().read("s", EventQuery.all().since(Instant.MAX)).items()).isEmpty();
  }

  @Test
  @DisplayName("Timestamps far from 1970 are stored to the microsecond")
  void distantTimestampsAreExact() {
    Instant ancient = Instant.parse("0004-02-29T12:34:56.123456Z");
    Instant distant = Instant.parse("+200000-12-31T23:59:59.999999Z");

    store.events().append("s", NewEvent.of("old").withId("old").withTimestamp(ancient));
    store.events().append("s", NewEvent.of("new").withId("new").withTimestamp(distant));

    assertThat(store.events().find("s", "old").orElseThrow().timestamp()).isEqualTo(ancient);
    assertThat(store.events().find("s", "new").orElseThrow().timestamp()).isEqualTo(distant);
  }
}
