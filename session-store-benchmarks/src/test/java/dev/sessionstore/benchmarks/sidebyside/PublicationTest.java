package dev.sessionstore.benchmarks.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How runs update the publication: a run replaces the rows and panels of the measures it ran on its Java, keeps every
 * other's, and the table puts each row's Javas side by side.
 */
class PublicationTest {

  @TempDir
  Path out;

  @Test
  void aRunReplacesItsMeasuresRowsOnItsJavaAndKeepsTheOthers() throws Exception {
    Publication publication = Publication.read(out)
        .with(run("a", 17), inOrder("Append", results("append", "17a"), "Read", results("read", "17a")))
        .with(run("b", 25), Map.of("Append", results("append", "25b")));
    publication.write(out);
    Publication again = Publication.read(out).with(run("c", 17), Map.of("Append", results("append", "17c")));

    assertThat(again.table()).extracting(row -> row.row().measure() + " " + row.java() + " " + row.row().library())
        .containsExactly("append 17 17c", "append 25 25b", "read 17 17a");
    assertThat(again.runs()).extracting(Publication.Run::id).containsExactly("a", "b", "c");
    assertThat(again.panels()).extracting(panel -> panel.java() + " " + panel.run())
        .containsExactlyInAnyOrder("17 a", "25 b", "17 c");
    assertThat(Report.panels(again)).extracting(Panel::title)
        .containsExactly("append (Java 17)", "append (Java 25)", "read (Java 17)");
  }

  @Test
  void aRunNoRowRefersToAnyLongerIsDropped() throws Exception {
    Publication publication = Publication.read(out)
        .with(run("a", 17), Map.of("Append", results("append", "first")))
        .with(run("b", 17), Map.of("Append", results("append", "second")));

    assertThat(publication.runs()).extracting(Publication.Run::id).containsExactly("b");
  }

  private static Map<String, Results> inOrder(String first, Results firstResults, String second,
      Results secondResults) {
    Map<String, Results> results = new LinkedHashMap<>();
    results.put(first, firstResults);
    results.put(second, secondResults);
    return results;
  }

  private static Publication.Run run(String id, int java) {
    return new Publication.Run(id, "2026-11-29T03:00:00Z", java, "abc", List.of("- **When:** now."));
  }

  private static Results results(String measure, String library) {
    Results results = new Results();
    results.add(new Row(measure, library, "baseline", "1.00×", "≥ 0.9×", true, "10 calls after 5"));
    results.add(new Panel(measure, "batch", "events", List.of(1, 2), List.of(1.0, 2.0), List.of(1.0, 2.0), false));
    results.baseline(measure, "what the baseline does");
    return results;
  }
}
