package dev.sessionstore.benchmarks.sidebyside;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes the published page from every recorded row ({@link Publication}): how to rerun it, the runs, the table
 * (measure, Java, warm-up, library, baseline, ratio, target, met, run; each row on every Java it was measured on,
 * side by side), the chart's numbers per Java, and what each baseline does and guarantees.
 */
final class Report {

  static final String TABLE_HEADER = "| measure | Java | warm-up | library | baseline | ratio | target | met | run |";

  private Report() {
  }

  static void write(Path file, Publication publication, String chartFileName, String command) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("# Side-by-side benchmarks");
    lines.add("");
    lines.add("Written by `dev.sessionstore.benchmarks.sidebyside.Harness` from the rows every run recorded in ["
        + Publication.DATA + "](" + Publication.DATA + "), on Java 17 (the oldest Java the library runs on) and the"
        + " newest LTS side by side. Rerun the whole set on both, one JVM per Java, one after the other:");
    lines.add("");
    lines.add("```bash");
    lines.add(command);
    lines.add("```");
    lines.add("");
    lines.add("A run replaces the rows of the measures it ran, on its Java, and keeps every other row: `--only"
        + " SingleAppend,BatchSweep` refreshes those two; the measures run on request only (`CassandraAppends`,"
        + " `CassandraReads`, `SearchAtScale`) and other modules' measures (`Harness.run` with a list of their own)"
        + " add their rows the same way. Each row names its run, described below.");
    lines.add("");
    lines.add("Each library call runs interleaved with its baseline's, call by call in random order (the writer rows:"
        + " timed phases of each side, alternating in random order), so that whatever else the machine does hits"
        + " both alike. Every measure works in fresh schemas of its own, every side through a HikariCP pool of the"
        + " same settings; warm-up calls are not counted (**warm-up**: the calls that ran before the measured ones,"
        + " where the row states them; else its measure's description does). Percentiles are nearest-rank over the"
        + " measured calls. **Ratio**: baseline p50 over library p50 for latencies, library over baseline for"
        + " throughputs; above 1× the library is faster. **Met** compares the library's numbers with the target.");
    lines.add("");
    lines.add(TABLE_HEADER);
    lines.add("|---|--:|---|---|---|--:|---|---|---|");
    for (Publication.PublishedRow published : publication.table()) {
      Row row = published.row();
      Publication.Run run = publication.run(published.run());
      lines.add("| " + String.join(" | ", cell(row.measure()), String.valueOf(published.java()),
          row.warmup().isEmpty() ? "—" : cell(row.warmup()), cell(row.library()), cell(row.baseline()),
          cell(row.ratio()), cell(row.target()), row.met() ? "yes" : "no",
          run.started().substring(0, 10) + " `" + run.commit() + "`") + " |");
    }
    lines.add("");
    lines.add("![Throughput against batch size and against writer count, library and raw twin](" + chartFileName
        + ")");
    for (Panel panel : panels(publication)) {
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
    publication.baselines().forEach((measure, description) -> lines.add("- **" + measure + "**: " + description));
    lines.add("");
    lines.add("## Runs");
    for (Publication.Run run : publication.runs()) {
      lines.add("");
      lines.add("### " + run.id());
      lines.add("");
      lines.addAll(run.lines());
    }
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  /** The chart's panels, each titled with the Java it was measured on. */
  static List<Panel> panels(Publication publication) {
    List<String> titles = publication.panels().stream().map(published -> published.panel().title()).distinct()
        .toList();
    return publication.panels().stream()
        .sorted(Comparator.comparingInt((Publication.PublishedPanel published) ->
            titles.indexOf(published.panel().title())).thenComparingInt(Publication.PublishedPanel::java))
        .map(published -> new Panel(published.panel().title() + " (Java " + published.java() + ")",
            published.panel().xLabel(), published.panel().unit(), published.panel().points(),
            published.panel().library(), published.panel().baseline(), published.panel().logScale()))
        .toList();
  }

  /** {@code text} as one Markdown table cell. */
  static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
