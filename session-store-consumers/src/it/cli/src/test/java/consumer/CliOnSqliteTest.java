package consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The runnable session-store.jar as a user runs it, {@code java -jar}, on a new SQLite file under target/: the demo
 * writes its conversation, then {@code events} reads it back from the file in another JVM.
 */
class CliOnSqliteTest {

  private static final Path JAR = Path.of(System.getProperty("cli.jar"));
  private static final String URL = "jdbc:sqlite:" + Path.of("target", "cli.db").toAbsolutePath();

  @Test
  void demoThenEventsReadTheFile() throws Exception {
    Files.deleteIfExists(Path.of("target", "cli.db"));
    assertTrue(Files.isRegularFile(JAR), "the build's runnable jar: " + JAR);

    String demo = run("demo", "--jdbc-url", URL);
    assertTrue(demo.startsWith("session-store demo: one agent conversation on " + URL), demo);

    String events = run("events", "trip-lisbon", "--jdbc-url", URL, "--last", "1", "--json");
    assertTrue(events.contains("\"ev-08\""), events);
  }

  private static String run(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the tool ends");
    assertEquals(0, process.exitValue(), output);
    return output;
  }
}
