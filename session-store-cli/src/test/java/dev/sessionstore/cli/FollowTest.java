package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code events --follow} in a process of its own prints an event that this test's process appends while it follows:
 * the waiting read is woken across processes.
 */
class FollowTest {

  private static final long WAIT_SECONDS = 30;

  @Test
  @DisplayName("events --follow in another process prints the event this process appends")
  void followSeesAnotherProcessesAppend() throws Exception {
    try (PostgresSchema schema = new PostgresSchema()) {
      assertThat(Cli.run(schema.with("migrate")).exitCode()).isZero();
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(schema.url());
      config.setMaximumPoolSize(3);
      try (HikariDataSource pool = new HikariDataSource(config);
           SessionStore store = JdbcSessionStore.builder().dataSource(pool).schema(schema.name()).build()) {
        store.events().append("followed", NewEvent.of("user_message").withId("before-follow"));

        Process follower = tool(schema.with("events", "followed", "--follow", "--json", "--type", "user_message"));
        try {
          BlockingQueue<String> lines = linesOf(follower);
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
    }
  }

  /** Starts the tool's main class in a new JVM on this test's class path. */
  private static Process tool(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        SessionStoreCli.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  private static BlockingQueue<String> linesOf(Process process) {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        in.lines().forEach(lines::add);
      } catch (Exception e) {
        lines.add("reading the follower failed: " + e);
      }
    }, "follower-output");
    reader.setDaemon(true);
    reader.start();
    return lines;
  }

  private static long seqOf(String line) {
    assertThat(line).as("a line printed in time").isNotNull();
    return Json.parse(line).get("seq").asLong();
  }
}
