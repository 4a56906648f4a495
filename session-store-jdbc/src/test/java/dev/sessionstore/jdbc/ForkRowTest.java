package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.spi.ForkRule;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The fork's session row, which the fork statement builds from the parent's row in SQL, is the record
 * {@link ForkRule#session} makes of the parent: the statement and the rule change together.
 */
class ForkRowTest {

  private static final Instant NOW = Instant.parse("2026-03-04T05:06:07.123456Z");

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("A fork's session is ForkRule.session of its parent, every field")
  void forkRowFollowsTheRule() {
    SessionStore store = schema.store(builder -> builder.clock(Clock.fixed(NOW, ZoneOffset.UTC)));
    store.sessions().save(SessionWrite.of("parent").withName("the-parent").withTenant("acme")
        .withAgentId("agent-7").withStatus(SessionStatus.of("waiting_for_human"))
        .withSettings(Json.of("{\"model\":\"m-1\",\"resume_policy\":\"eager\"}"))
        .withMetadata(Map.of("team", "blue")));
    store.events().appendAll("parent", List.of(NewEvent.of("a"), NewEvent.of("b")));
    Session parent = store.sessions().find("parent").orElseThrow();

    Session fork = store.sessions().fork("parent", 1, "fork");

    assertThat(fork).isEqualTo(ForkRule.session(parent, "fork", 1, NOW));
    assertThat(store.sessions().find("fork")).contains(fork);
  }
}
