package dev.sessionstore.benchmarks.sidebyside;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the measures of one run produced, in the order they produced it: table rows, chart panels, baselines. */
final class Results {

  private final List<Row> rows = new ArrayList<>();
  private final List<Panel> panels = new ArrayList<>();
  private final Map<String, String> baselines = new LinkedHashMap<>();

  void add(Row row) {
    rows.add(row);
  }

  void add(Panel panel) {
    panels.add(panel);
  }

  /** Describes what the baseline of {@code measure} does and guarantees. */
  void baseline(String measure, String description) {
    baselines.put(measure, description);
  }

  List<Row> rows() {
    return List.copyOf(rows);
  }

  List<Panel> panels() {
    return List.copyOf(panels);
  }

  Map<String, String> baselines() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(baselines));
  }
}
