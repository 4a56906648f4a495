package dev.sessionstore.benchmarks.sidebyside;

import java.util.List;

/**
 * One panel of the chart and its table: throughput of the library and of its raw twin at each point of a sweep.
 *
 * @param title    what the panel shows
 * @param xLabel   what the points are (batch size, writers)
 * @param unit     what the throughput counts per second (events, appends)
 * @param points   the swept values, ascending
 * @param library  the library's throughput at each point, per second
 * @param baseline the raw twin's throughput at each point, per second
 * @param logScale whether the throughput axis is logarithmic (for values spanning decades)
 */
public record Panel(String title, String xLabel, String unit, List<Integer> points, List<Double> library,
    List<Double> baseline, boolean logScale) {

  public Panel {
    if (points.size() != library.size() || points.size() != baseline.size()) {
      throw new IllegalArgumentException("one throughput per point and side: " + points.size() + " points, "
          + library.size() + " library values, " + baseline.size() + " baseline values");
    }
    points = List.copyOf(points);
    library = List.copyOf(library);
    baseline = List.copyOf(baseline);
  }
}
