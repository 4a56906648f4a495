package dev.sessionstore.reliability;

import java.util.List;

/**
 * The growth rule of the soak: a series of samples grows when the median of its last third exceeds the median of
 * its first third by more than a factor plus an absolute slack. Using medians of thirds ignores a single spike (a GC,
 * a neighbour's build on the shared machine) and a warm-up.
 */
final class Trend {

  private Trend() {
  }

  /** Whether {@code samples} grows beyond {@code factor * firstThird + slack}; fewer than 3 samples never grow. */
  static boolean grows(List<Double> samples, double factor, double slack) {
    if (samples.size() < 3) {
      return false;
    }
    int third = samples.size() / 3;
    return median(samples.subList(samples.size() - third, samples.size()))
        > factor * median(samples.subList(0, third)) + slack;
  }

  /** The median of the first and of the last third, for the report. */
  static String describe(List<Double> samples) {
    if (samples.size() < 3) {
      return "too few samples";
    }
    int third = samples.size() / 3;
    return String.format("first third %.1f, last third %.1f", median(samples.subList(0, third)),
        median(samples.subList(samples.size() - third, samples.size())));
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int middle = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
  }
}
