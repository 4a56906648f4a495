package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * {@code events --follow} in a process of its own prints an event that this test's process appends while it follows:
 * the waiting read is woken across processes, on PostgreSQL (notifications) and on a SQLite file (its change
 * counter).
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
