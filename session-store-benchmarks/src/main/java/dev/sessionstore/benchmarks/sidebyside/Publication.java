package dev.sessionstore.benchmarks.sidebyside;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every published figure and the runs that measured them: the data file ({@value #DATA}) the page and the chart are
 * rendered from. Its rows and panels are keyed by measure (the class name of the {@link Measure}) and Java feature
 * version: a run replaces the rows and panels of the measures it ran on its Java and leaves every other's as they
 * are, so a run of some measures (an {@code --only} run, a measure on request, another module's measures) updates
 * its rows without erasing the others'. A run no row or panel refers to any longer is dropped.
 *
 * @param runs      the runs the rows and panels refer to, oldest first
 * @param rows      the table's rows, in the order their measures were first published
 * @param panels    the chart's panels, likewise
 * @param baselines what each measure's baseline does, by the measure's row name
 */
record Publication(List<Run> runs, List<PublishedRow> rows, List<PublishedPanel> panels,
    Map<String, String> baselines) {

  static final String DATA = "benchmarks.json";
  private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  Publication {
    runs = List.copyOf(runs);
    rows = List.copyOf(rows);
    panels = List.copyOf(panels);
    baselines = Collections.unmodifiableMap(new LinkedHashMap<>(baselines));
  }

  /** The publication in {@code folder}'s {@value #DATA}; empty if there is none yet. */
  static Publication read(Path folder) throws IOException {
    Path file = folder.resolve(DATA);
    if (!Files.exists(file)) {
      return new Publication(List.of(), List.of(), List.of(), Map.of());
    }
    return MAPPER.readValue(file.toFile(), Publication.class);
  }

  /** Writes this publication to {@code folder}'s {@value #DATA}. */
  void write(Path folder) throws IOException {
    MAPPER.writeValue(folder.resolve(DATA).toFile(), this);
  }

  /**
   * This publication with {@code run}'s results, by measure key: each measure's rows and panels on the run's Java
   * replace those it had there; other measures and other Javas keep theirs.
   */
  Publication with(Run run, Map<String, Results> results) {
    List<PublishedRow> newRows = new ArrayList<>(rows);
    List<PublishedPanel> newPanels = new ArrayList<>(panels);
    Map<String, String> newBaselines = new LinkedHashMap<>(baselines);
    results.forEach((measure, measured) -> {
      newRows.removeIf(row -> row.measure().equals(measure) && row.java() == run.java());
      newPanels.removeIf(panel -> panel.measure().equals(measure) && panel.java() == run.java());
      int row = lastIndexOf(newRows.stream().map(PublishedRow::measure).toList(), measure);
      for (Row measuredRow : measured.rows()) {
        newRows.add(++row, new PublishedRow(measure, run.java(), run.id(), measuredRow));
      }
      int panel = lastIndexOf(newPanels.stream().map(PublishedPanel::measure).toList(), measure);
      for (Panel measuredPanel : measured.panels()) {
        newPanels.add(++panel, new PublishedPanel(measure, run.java(), run.id(), measuredPanel));
      }
      newBaselines.putAll(measured.baselines());
    });
    Set<String> used = new LinkedHashSet<>();
    newRows.forEach(row -> used.add(row.run()));
    newPanels.forEach(panel -> used.add(panel.run()));
    List<Run> newRuns = new ArrayList<>(runs);
    newRuns.removeIf(old -> old.id().equals(run.id()));
    newRuns.add(run);
    newRuns.removeIf(old -> !used.contains(old.id()));
    return new Publication(newRuns, newRows, newPanels, newBaselines);
  }

  /**
   * The rows in table order: measures in the order first published, within a measure its row names in that order,
   * and each row name on every Java it was measured on, oldest Java first, so the Javas sit side by side.
   */
  List<PublishedRow> table() {
    List<String> names = new ArrayList<>();
    for (PublishedRow row : rows) {
      if (!names.contains(row.row().measure())) {
        names.add(row.row().measure());
      }
    }
    List<PublishedRow> table = new ArrayList<>(rows.size());
    for (String name : names) {
      rows.stream().filter(row -> row.row().measure().equals(name))
          .sorted((a, b) -> Integer.compare(a.java(), b.java()))
          .forEach(table::add);
    }
    return table;
  }

  /** The run of {@code id}. */
  Run run(String id) {
    return runs.stream().filter(run -> run.id().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalStateException(DATA + " names run " + id + " but does not describe it"));
  }

  /** Where {@code measure} last occurs in {@code measures}; the last index if nowhere, so that its entries go last. */
  private static int lastIndexOf(List<String> measures, String measure) {
    int last = measures.lastIndexOf(measure);
    return last < 0 ? measures.size() - 1 : last;
  }

  /**
   * What one run was measured on and when.
   *
   * @param id      the run's start and Java, unique in the publication
   * @param started when the run started, to the second (UTC)
   * @param java    the Java feature version the run measured on (17, 25)
   * @param commit  the checked-out commit, {@code -dirty} with changes in the work tree
   * @param lines   the Markdown lines that describe the run ({@link RunInfo#lines()})
   */
  record Run(String id, String started, int java, String commit, List<String> lines) {

    Run {
      lines = List.copyOf(lines);
    }
  }

  /** A row of the table as measure {@code measure} produced it in run {@code run} on Java {@code java}. */
  record PublishedRow(String measure, int java, String run, Row row) {
  }

  /** A chart panel as measure {@code measure} produced it in run {@code run} on Java {@code java}. */
  record PublishedPanel(String measure, int java, String run, Panel panel) {
  }
}
