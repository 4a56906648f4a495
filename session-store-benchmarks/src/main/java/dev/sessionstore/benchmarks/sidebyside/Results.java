package dev.sessionstore.benchmarks.sidebyside;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the measures of one run produced, in the order they produced it: table rows, chart panels, baselines. */
public final class Results {

  private final List<Row> rows = new ArrayList<>();
  private final List<Panel> panels = new ArrayList<>();
  private final Map<String, String> baselines = new LinkedHashMap<>();

  /** Adds a row to the table. */
  public void add(Row row) {
    rows.add(row);
  }

  /** Adds a panel to the chart. */
  public void add(Panel panel) {
    panels.add(panel);
  }

  /** Describes what the baseline of {@code measure} (a row name) does and guarantees. */
  public void baseline(String measure, String description) {
    baselines.put(measure, description);
  }

  /** The rows, in the order added. */
  public List<Row> rows() {
    return List.copyOf(rows);
  }

  /** The panels, in the order added. */
  public List<Panel> panels() {
    return List.copyOf(panels);
  }

  /** What each measure's baseline does, by the row name it was given for. */
  public Map<String, String> baselines() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(baselines));
  }
}
