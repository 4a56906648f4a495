package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * {@code events --follow} in a process of its own prints an event that this test's process appends while it follows:
 * the waiting read is woken across processes, on PostgreSQL (notifications) and on a SQLite file (its change
 * counter). When this process truncates, deletes or replaces the session, the follower says so on standard error
 * and prints the new history; it waits for a session that does not exist yet.
 */
class FollowTest {

  private static final long WAIT_SECONDS = 30;

  @TempDir
  Path folder;

  @Test
  @DisplayName("PostgreSQL: events --follow in another process prints the event this process appends")
  void followOnPostgres() throws Exception {
    try (PostgresSchema schema = new PostgresSchema()) {
      assertThat(Cli.run(schema.with("migrate")).exitCode()).isZero();
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(schema.url());
      config.setMaximumPoolSize(3);
      try (HikariDataSource pool = new HikariDataSource(config);
           SessionStore store = JdbcSessionStore.builder().dataSource(pool).schema(schema.name()).build()) {
        assertFollowSeesAppend(store, schema.options());
      }
    }
  }

  @Test
  @DisplayName("SQLite: events --follow in another process prints the event this process appends")
  void followOnSqlite() throws Exception {
    String url = "jdbc:sqlite:" + folder.resolve("follow.db");
    assertThat(Cli.run("migrate", "--jdbc-url", url).exitCode()).isZero();
    SQLiteDataSource file = new SQLiteDataSource();
    file.setUrl(url);
    try (SessionStore store = JdbcSessionStore.builder().dataSource(file).build()) {
      assertFollowSeesAppend(store, new String[] {"--jdbc-url", url});
    }
  }

  @Test
  @DisplayName("PostgreSQL: events --follow waits for its session, and names a truncation, a deletion and a "
      + "replacement before it prints the new history")
  void historyChangesOnPostgres() throws Exception {
    try (PostgresSchema schema = new PostgresSchema()) {
      assertThat(Cli.run(schema.with("migrate")).exitCode()).isZero();
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(schema.url());
      config.setMaximumPoolSize(3);
      try (HikariDataSource pool = new HikariDataSource(config);
           SessionStore store = JdbcSessionStore.builder().dataSource(pool).schema(schema.name()).build()) {
        assertFollowNamesEveryChange(store, schema.options());
      }
    }
  }

  @Test
  @DisplayName("SQLite: events --follow waits for its session, and names a truncation, a deletion and a replacement"
      + " before it prints the new history")
  void historyChangesOnSqlite() throws Exception {
    String url = "jdbc:sqlite:" + folder.resolve("changes.db");
    assertThat(Cli.run("migrate", "--jdbc-url", url).exitCode()).isZero();
    SQLiteDataSource file = new SQLiteDataSource();
    file.setUrl(url);
    try (SessionStore store = JdbcSessionStore.builder().dataSource(file).build()) {
      assertFollowNamesEveryChange(store, new String[] {"--jdbc-url", url});
    }
  }

  /**
   * One follower through every change of history: each is named on standard error before the new history's events
   * come on standard output, and no event of one history follows an event of another without that line.
   */
  private void assertFollowNamesEveryChange(SessionStore store, String[] storeOptions) throws Exception {
    Process follower = ToolProcess.startPiped(folder, concat(new String[] {"events", "story", "--follow", "--json"},
        storeOptions));
    try {
      BlockingQueue<String> out = ToolProcess.linesOf(follower);
      BlockingQueue<String> err = ToolProcess.errorLinesOf(follower);
      assertThat(err.poll(WAIT_SECONDS, TimeUnit.SECONDS)).as("the session does not exist yet")
          .isEqualTo("session-store: no session with id or name \"story\" yet; waiting for it to be created");

      store.events().appendAll("story", events("e1", "e2", "e3"));
      assertThat(next(out, 3)).containsExactly("1 e1", "2 e2", "3 e3");

      store.events().truncate("story", 2);
      store.events().appendAll("story", events("x2", "x3", "x4"));
      assertThat(err.poll(WAIT_SECONDS, TimeUnit.SECONDS)).startsWith("session-store: session story was truncated (")
          .endsWith("); starting over on its new history");
      assertThat(next(out, 4)).containsExactly("1 e1", "2 x2", "3 x3", "4 x4");

      store.sessions().delete("story");
      assertThat(err.poll(WAIT_SECONDS, TimeUnit.SECONDS))
          .isEqualTo("session-store: session story was deleted; waiting for it to be created again");
      store.events().append("story", NewEvent.of("user_message").withId("y1"));
      assertThat(next(out, 1)).containsExactly("1 y1");

      store.sessions().delete("story");
      store.events().appendAll("story", events("z1", "z2"));
      assertThat(err.poll(WAIT_SECONDS, TimeUnit.SECONDS)).as("deleted, or already created again when it looked")
          .matches("session-store: session story was (deleted; waiting for it to be created again"
              + "|replaced \\(created again at .*\\); starting over on its new history)");
      assertThat(next(out, 2)).containsExactly("1 z1", "2 z2");
      assertThat(follower.isAlive()).as("still following").isTrue();
      assertThat(out.poll(2, TimeUnit.SECONDS)).as("nothing more printed").isNull();
      assertThat(err.poll(0, TimeUnit.SECONDS)).as("nothing more said").isNull();
    } finally {
      follower.destroy();
      follower.waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  /** The next {@code count} events printed, as {@code "<seq> <id>"}. */
  private static List<String> next(BlockingQueue<String> out, int count) throws InterruptedException {
    List<String> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String line = out.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertThat(line).as("event " + (i + 1) + " of " + count + " printed in time, after " + events).isNotNull();
      JsonNode event = Json.parse(line);
      events.add(event.get("seq").asLong() + " " + event.get("id").asText());
    }
    return events;
  }

  private static List<NewEvent> events(String... ids) {
    return Stream.of(ids).map(id -> NewEvent.of("user_message").withId(id)).toList();
  }

  private static String[] concat(String[] first, String[] second) {
    String[] all = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, all, first.length, second.length);
    return all;
  }

  private void assertFollowSeesAppend(SessionStore store, String[] storeOptions) throws Exception {
    store.events().append("followed", NewEvent.of("user_message").withId("before-follow"));
    String[] args = {"events", "followed", "--follow", "--json", "--type", "user_message"};
    String[] all = new String[args.length + storeOptions.length];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(storeOptions, 0, all, args.length, storeOptions.length);

    Process follower = ToolProcess.start(folder, all);
    try {
      BlockingQueue<String> lines = ToolProcess.linesOf(follower);
      assertThat(seqOf(lines.poll(WAIT_SECONDS, TimeUnit.SECONDS))).as("the event already stored").isEqualTo(1);

      store.events().append("followed", NewEvent.of("tool_use").withId("filtered-out"));
      store.events().append("followed", NewEvent.of("user_message").withId("while-following"));

      JsonNode appended = Json.parse(lines.poll(WAIT_SECONDS, TimeUnit.SECONDS));
      assertThat(appended.get("id").asText()).isEqualTo("while-following");
      assertThat(appended.get("seq").asLong()).isEqualTo(3);
      assertThat(follower.isAlive()).as("still following").isTrue();
    } finally {
      follower.destroy();
      follower.waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  private static long seqOf(String line) {
    assertThat(line).as("a line printed in time").isNotNull();
    return Json.parse(line).get("seq").asLong();
  }
}
