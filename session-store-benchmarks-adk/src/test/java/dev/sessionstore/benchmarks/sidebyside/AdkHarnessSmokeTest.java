package dev.sessionstore.benchmarks.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the ADK measures once, at the smoke scale (one warm-up round and two measured rounds of each side), and checks
 * that the page comes out complete: a row per measure, numbers in every cell, and every append of the library's last
 * round read back. Asserts nothing about the timings: a build machine's mean nothing.
 *
 * <p>The database is {@link SmokeDatabase}'s.
 */
class AdkHarnessSmokeTest {

  @TempDir
  Path out;

  @Test
  void everyMeasureRunsAndThePageIsComplete() throws Exception {
    SmokeDatabase.run("ADK smoke test", this::runAndCheck);
  }

  private void runAndCheck(String url) throws Exception {
    Harness.run(new Bench(url, Scale.SMOKE), out, "smoke test", AdkHarness.measures());

    List<String> page = Files.readAllLines(out.resolve(Harness.PAGE), StandardCharsets.UTF_8);
    List<String> rows = HarnessSmokeTest.tableRows(page);
    assertThat(rows).as("in-memory, PostgreSQL").hasSize(2)
        .allSatisfy(row -> assertThat(row).matches(HarnessSmokeTest.ROW).doesNotContain("n/a")
            .contains("320 of 320 appends read back").doesNotContain("NOT all"));
    assertThat(rows.get(0)).contains("in-memory store", "≥ 0.5× (within 2× ADK's time)");
    assertThat(rows.get(1)).contains("PostgreSQL store");
    assertThat(String.join("\n", page)).contains("## What each baseline does", "**Database:** PostgreSQL",
        "`InMemorySessionService.appendEvent`");
  }
}
