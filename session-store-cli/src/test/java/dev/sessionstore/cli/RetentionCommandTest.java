package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * {@code session-store retention} on a SQLite file written a year ago (by a store with a clock set back), with one
 * session touched now: the dry run counts, writes nothing; the application removes exactly that; bad policies exit 2.
 */
class RetentionCommandTest {

  private static final Instant LAST_YEAR = Instant.now().minusSeconds(366L * 24 * 3600);

  @TempDir
  Path folder;
  private String url;

  @BeforeEach
  void writeOldSessions() {
    url = "jdbc:sqlite:" + folder.resolve("old.db");
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl(url);
    try (SessionStore old = JdbcSessionStore.builder().dataSource(dataSource)
        .clock(Clock.fixed(LAST_YEAR, ZoneOffset.UTC)).build()) {
      old.sessions().save(SessionWrite.of("done-1").withStatus(SessionStatus.COMPLETED));
      old.sessions().save(SessionWrite.of("done-2").withStatus(SessionStatus.COMPLETED));
      old.events().appendAll("long", IntStream.rangeClosed(1, 10)
          .mapToObj(i -> NewEvent.of("message").withId("e" + i)).toList());
      old.summaries().put("long", NewSummary.of(1, 6, dev.sessionstore.Json.of("{}")));
    }
    try (SessionStore now = JdbcSessionStore.builder().dataSource(dataSource).build()) {
      now.events().append("long", NewEvent.of("message").withId("e11"));
    }
  }

  @Test
  @DisplayName("--dry-run counts idle sessions and old chapters and writes nothing; then the same run removes them")
  void dryRunThenApply() {
    Cli.Result dry = Cli.run("retention", "--idle-for", "30d", "--keep-events", "3", "--dry-run", "--json",
        "--jdbc-url", url);
    Cli.Result listed = Cli.run("sessions", "list", "--json", "--jdbc-url", url);

    assertThat(dry.exitCode()).as(dry.err()).isZero();
    JsonNode dryReport = Json.parse(dry.out());
    assertThat(dryReport.get("dryRun").asBoolean()).isTrue();
    assertThat(dryReport.get("sessions").asLong()).as("idle sessions").isEqualTo(2);
    assertThat(dryReport.get("events").asLong()).as("events in chapters below the summary").isEqualTo(6);
    assertThat(Json.parse(listed.out()).get("sessions")).as("sessions after the dry run").hasSize(3);

    Cli.Result applied = Cli.run("retention", "--idle-for", "30d", "--keep-events", "3", "--jdbc-url", url);
    Cli.Result events = Cli.run("events", "long", "--json", "--jdbc-url", url);

    assertThat(applied.exitCode()).as(applied.err()).isZero();
    assertThat(applied.out()).contains("sessions:          removed 2 idle, with all their events")
        .contains("events:            removed 6 below the latest summary of sessions kept");
    assertThat(Json.parse(Cli.run("sessions", "list", "--json", "--jdbc-url", url).out()).get("sessions"))
        .extracting(node -> node.get("id").asText()).containsExactly("long");
    assertThat(Json.parse(events.out()).get("events")).extracting(node -> node.get("seq").asLong())
        .containsExactly(7L, 8L, 9L, 10L, 11L);
  }

  @Test
  @DisplayName("--status narrows the idle rule; a policy without a rule, or a scope without --idle-for, exits 2")
  void scopesAndBadPolicies() {
    Cli.Result narrowed = Cli.run("retention", "--idle-for", "P30D", "--status", "paused", "--json", "--jdbc-url",
        url);
    assertThat(narrowed.exitCode()).as(narrowed.err()).isZero();
    assertThat(Json.parse(narrowed.out()).get("sessions").asLong()).as("idle paused sessions").isZero();

    assertUsageError(Cli.run("retention", "--jdbc-url", url), "session-store: give at least one rule");
    assertUsageError(Cli.run("retention", "--tenant", "t", "--keep-events", "3", "--jdbc-url", url),
        "session-store: --tenant");
    assertUsageError(Cli.run("retention", "--idle-for", "soon", "--jdbc-url", url), "session-store: ");
    assertThat(Cli.run("retention", "--idle-for", "soon", "--jdbc-url", url).err()).contains("--idle-for");
  }

  private static void assertUsageError(Cli.Result result, String start) {
    assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCode.USAGE.code());
    assertThat(result.err()).startsWith(start);
    assertThat(result.out()).isEmpty();
  }
}
