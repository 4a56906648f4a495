package dev.sessionstore.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The README's first command shows progress at once: run from the repository root as a reader pastes it (with this
 * machine's Maven repository, already filled), it prints a first line within {@link #FIRST_LINE_WITHIN}; then the
 * test stops it and every process it started, so it costs a few seconds, not a build.
 */
class ReadmeFirstCommandTest {

  /** How long the first command may stay silent. */
  static final Duration FIRST_LINE_WITHIN = Duration.ofSeconds(10);

  @Test
  void firstCommandPrintsWithinSeconds() throws Exception {
    Path root = RepositoryRoot.find();
    String command = firstCommand(Files.readAllLines(root.resolve("README.md")));
    assertThat(command).as("the README's first command").startsWith("./mvnw ").doesNotContain(" -q");

    Process process = new ProcessBuilder("bash", "-c", command)
        .directory(root.toFile())
        .redirectErrorStream(true)
        .start();
    CompletableFuture<String> firstLine = CompletableFuture.supplyAsync(() -> readFirstLine(process));
    try {
      String line = firstLine.get(FIRST_LINE_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(line).as("the first line \"" + command + "\" printed").isNotNull().isNotBlank();
    } catch (TimeoutException silent) {
      throw new AssertionError("\"" + command + "\" printed nothing for " + FIRST_LINE_WITHIN.toSeconds() + " s");
    } finally {
      stopTree(process.toHandle());
    }
  }

  /** The first command line of the README's first {@code bash} block: its first line that is not a comment. */
  static String firstCommand(List<String> readme) {
    int open = readme.indexOf("```bash");
    assertThat(open).as("a ```bash block in README.md").isNotNegative();
    for (String line : readme.subList(open + 1, readme.size())) {
      if (line.equals("```")) {
        break;
      }
      if (!line.isBlank() && !line.strip().startsWith("#")) {
        return line.strip();
      }
    }
    throw new AssertionError("the README's first ```bash block holds no command");
  }

  private static String readFirstLine(Process process) {
    try (BufferedReader output = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line = output.readLine();
      while (line != null && line.isBlank()) {
        line = output.readLine();
      }
      return line;
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Kills {@code process} and every descendant, children first, again until no new one appears, and waits until
   * none is alive.
   */
  private static void stopTree(ProcessHandle process) throws InterruptedException {
    Set<ProcessHandle> seen = new LinkedHashSet<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    do {
      List<ProcessHandle> current = process.descendants().toList();
      seen.addAll(current);
      current.forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      Thread.sleep(50);
    } while (System.nanoTime() < deadline
        && (process.isAlive() || seen.stream().anyMatch(ProcessHandle::isAlive)));
    assertThat(process.isAlive()).as("the command's shell, killed").isFalse();
    assertThat(seen).as("every process the command started, killed").noneMatch(ProcessHandle::isAlive);
  }
}
