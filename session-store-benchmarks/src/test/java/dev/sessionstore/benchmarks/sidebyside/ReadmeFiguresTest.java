package dev.sessionstore.benchmarks.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's quoted figures: the headline rows of Java 17 only, between the markers, the rest of the file kept. */
class ReadmeFiguresTest {

  @TempDir
  Path folder;

  @Test
  void quotesTheJava17HeadlineRowsBetweenTheMarkersAndKeepsTheRest() throws Exception {
    Path readme = folder.resolve("README.md");
    Files.write(readme, List.of("# title", ReadmeFigures.START, "| stale |", ReadmeFigures.END, "after"),
        StandardCharsets.UTF_8);
    Publication publication = Publication.read(folder)
        .with(run("a", 17), Map.of("SingleAppend", results("first calls", "0.91×", "warmed", "0.95×"),
            "Unquoted", results("not a headline", "9.99×")))
        .with(run("b", 25), Map.of("SingleAppend", results("first calls", "0.80×", "warmed", "0.85×")));

    assertThat(ReadmeFigures.write(readme, publication)).isTrue();

    assertThat(Files.readAllLines(readme, StandardCharsets.UTF_8)).containsExactly(
        "# title",
        ReadmeFigures.START,
        "| measured on Java 17 | ratio | target | met |",
        "|---|--:|---|---|",
        "| first calls | 0.91× | ≥ 0.9× | yes |",
        "| warmed | 0.95× | ≥ 0.9× | yes |",
        ReadmeFigures.END,
        "after");
  }

  @Test
  void leavesAReadmeWithoutTheMarkersAlone() throws Exception {
    Path readme = folder.resolve("README.md");
    Files.write(readme, List.of("# title", "no figures here"), StandardCharsets.UTF_8);
    Publication publication = Publication.read(folder)
        .with(run("a", 17), Map.of("SingleAppend", results("first calls", "0.91×")));

    assertThat(ReadmeFigures.write(readme, publication)).isFalse();

    assertThat(Files.readAllLines(readme, StandardCharsets.UTF_8)).containsExactly("# title", "no figures here");
  }

  private static Publication.Run run(String id, int java) {
    return new Publication.Run(id, "2026-11-29T03:00:00Z", java, "abc", List.of("- **When:** now."));
  }

  /** Rows named and rated as given in pairs: name, ratio, name, ratio... */
  private static Results results(String... namesAndRatios) {
    Results results = new Results();
    for (int i = 0; i < namesAndRatios.length; i += 2) {
      results.add(new Row(namesAndRatios[i], "library", "baseline", namesAndRatios[i + 1], "≥ 0.9×", true));
    }
    return results;
  }
}
