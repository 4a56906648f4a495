package dev.sessionstore.benchmarks.sidebyside;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the published page: how the run was made, the table (measure, library, baseline, ratio, target, met), the
 * chart and the numbers behind it, and what each baseline does and guarantees.
 */
final class Report {

  static final String TABLE_HEADER = "| measure | library | baseline | ratio | target | met |";

  private Report() {
  }

  static void write(Path file, RunInfo run, Results results, String chartFileName, String command)
      throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("# Side-by-side benchmarks");
    lines.add("");
    lines.add("Written by `dev.sessionstore.benchmarks.sidebyside.Harness`; rerun it to refresh this page:");
    lines.add("");
    lines.add("```bash");
    lines.add(command);
    lines.add("```");
    lines.add("");
    lines.addAll(run.lines());
    lines.add("");
    lines.add("Each library call runs interleaved with its baseline's, call by call in random order (the writer rows:"
        + " timed phases of each side, alternating in random order), so that whatever else the machine does hits"
        + " both alike. Every measure works in fresh schemas of its own, every side through a HikariCP pool of the"
        + " same settings; warm-up calls are not counted. Percentiles are nearest-rank over the measured calls."
        + " **Ratio**: baseline p50 over library p50 for latencies, library over baseline for throughputs; above"
        + " 1× the library is faster. **Met** compares the library's numbers with the target.");
    lines.add("");
    lines.add(TABLE_HEADER);
    lines.add("|---|---|---|--:|---|---|");
    for (Row row : results.rows()) {
      lines.add("| " + String.join(" | ", cell(row.measure()), cell(row.library()), cell(row.baseline()),
          cell(row.ratio()), cell(row.target()), row.met() ? "yes" : "no") + " |");
    }
    lines.add("");
    lines.add("![Throughput against batch size and against writer count, library and raw twin](" + chartFileName
        + ")");
    for (Panel panel : results.panels()) {
      lines.add("");
      lines.add("## " + panel.title());
      lines.add("");
      lines.add("| " + panel.xLabel() + " | library (" + panel.unit() + "/s) | raw twin (" + panel.unit()
          + "/s) | library / twin |");
      lines.add("|--:|--:|--:|--:|");
      for (int i = 0; i < panel.points().size(); i++) {
        double library = panel.library().get(i);
        double baseline = panel.baseline().get(i);
        lines.add("| " + panel.points().get(i) + " | " + Numbers.plain(library) + " | " + Numbers.plain(baseline)
            + " | " + Numbers.ratio(library / baseline) + " |");
      }
    }
    lines.add("");
    lines.add("## What each baseline does");
    lines.add("");
    results.baselines().forEach((measure, description) -> lines.add("- **" + measure + "**: " + description));
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
