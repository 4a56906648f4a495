package dev.sessionstore.benchmarks.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the spring-ai-session measures once, at the smoke scale, and checks that the page comes out complete: a row
 * per measure and length, numbers in every cell, and the library's writers row with nothing lost. Asserts nothing
 * about the timings: a build machine's mean nothing.
 *
 * <p>The database is {@link SmokeDatabase}'s.
 */
class SpringAiSessionHarnessSmokeTest {

  @TempDir
  Path out;

  @Test
  void everyMeasureRunsAndThePageIsComplete() throws Exception {
    SmokeDatabase.run("spring-ai-session smoke test", this::runAndCheck);
  }

  private void runAndCheck(String url) throws Exception {
    Harness.run(new Bench(url, Scale.SMOKE), out, "smoke test", SpringAiSessionHarness.measures());

    List<String> page = Files.readAllLines(out.resolve(Harness.PAGE), StandardCharsets.UTF_8);
    List<String> rows = HarnessSmokeTest.tableRows(page);
    assertThat(rows).as("append, three tail lengths, compaction, writers").hasSize(6)
        .allSatisfy(row -> assertThat(row).matches(HarnessSmokeTest.ROW).doesNotContain("n/a"));
    assertThat(rows.get(0)).contains("append one event");
    assertThat(rows.subList(1, 4)).satisfiesExactly(
        row -> assertThat(row).contains("last 20 at 10 events"),
        row -> assertThat(row).contains("last 20 at 40 events"),
        row -> assertThat(row).contains("last 20 at 80 events"));
    assertThat(rows.get(4)).contains("`compactEvents` archiving all but the last 20 of 40 events");
    String library = rows.get(5).split(" \\| ")[3];
    assertThat(library).as("the library's writers cell")
        .contains(" 0 errors", "lost 0 · duplicated 0 · unreturned 0").doesNotContain("NOT");
    assertThat(String.join("\n", page)).contains("## What each baseline does",
        "**Database:** PostgreSQL", "## spring-ai-session findEvents last 20");
  }
}
