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
import dev.sessionstore.SessionWrite;
import dev.sessionstore.spi.ResumeRule;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What PostgreSQL itself holds: documents as the text written (json columns), exact numbers, the eager-resume index
 * on settings, the range of timestamps.
 */
class DocumentStorageTest {

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
  @DisplayName("Big integers and long decimals are stored digit for digit and queryable as numbers")
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
  @DisplayName("A document at the length bound reads back as written")
  void maximalDocumentsReadBack() {
    StringBuilder text = new StringBuilder("[1");
    while (text.length() < Limits.MAX_JSON_LENGTH - 2) {
      text.append(",1");
    }
    Json payload = Json.of(text.append(']').toString());

    Event appended = store.events().append("s", NewEvent.of("large", payload));

    assertThat(store.events().find("s", appended.id()).orElseThrow().payload().text()).isEqualTo(payload.text());
  }

  @Test
  @DisplayName("The payload column holds the text as written: key order, whitespace, escapes and number notation")
  void theColumnHoldsTheTextAsWritten() {
    String text = "{ \"tool\" : \"w\u00e9ather\",\n \"callId\":\"c-1\", \"args\":{\"z\":1.50,\"a\":1E+2},"
        + " \"text\":\"a  b, \\\"c\\\": d \\\\ \\u00e9 \\ud83d\\ude00\" }";

    Event appended = store.events().append("s", NewEvent.of("tool_call", Json.of(text)));

    assertThat(schema.queryValue("SELECT payload::text FROM \"" + schema.name() + "\".session_store_events"))
        .isEqualTo(text);
    assertThat(store.events().find("s", appended.id()).orElseThrow().payload().text()).isEqualTo(text);
  }

  @Test
  @DisplayName("Listing sessions to resume eagerly reads the partial index on the settings' resume_policy, also"
      + " with the rule's member and value bound as parameters of a statement prepared on the server")
  void eagerResumeUsesThePartialIndex() throws SQLException {
    String sessions = "\"" + schema.name() + "\".session_store_sessions";
    store.sessions().save(SessionWrite.of("eager-1").withSettings(Json.of("{\"resume_policy\" : \"eager\"}")));
    store.sessions().save(SessionWrite.of("lazy-1").withSettings(Json.of("{\"resume_policy\":\"lazy\"}")));
    store.sessions().save(SessionWrite.of("eager-2")
        .withSettings(Json.of("{\"model\":\"m\",\"resume_policy\":\"eager\"}")));
    TestDatabase.get().execute("INSERT INTO " + sessions + " (id, status, settings, metadata, created_at, updated_at)"
            + " SELECT 'bulk-' || g, 'active', '{\"model\": \"m\"}', '{}', now(), now()"
            + " FROM generate_series(1, 20000) AS g",
        "ANALYZE " + sessions);

    assertThat(store.sessions().listResumable()).containsExactly("eager-1", "eager-2");
    String execute = "EXECUTE resumable('" + ResumeRule.SETTING + "', '" + ResumeRule.EAGER + "')";
    try (Connection connection = TestDatabase.get().adminDataSource().getConnection();
         Statement statement = connection.createStatement()) {
      statement.execute("PREPARE resumable(text, text) AS SELECT id FROM " + sessions
          + " WHERE settings ->> $1 = $2 ORDER BY id");
      for (int i = 0; i < 10; i++) { // past the executions after which the server may choose a generic plan
        statement.execute(execute);
      }
      StringBuilder plan = new StringBuilder();
      try (ResultSet rows = statement.executeQuery("EXPLAIN " + execute)) {
        while (rows.next()) {
          plan.append(rows.getString(1)).append('\n');
        }
      }
      assertThat(plan.toString()).contains("session_store_sessions_resumable_idx").doesNotContain("Seq Scan");
    }
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
