package dev.sessionstore.benchmarks.sidebyside;

import java.util.Arrays;

/**
 * The measured calls of one side of a measure: their durations, the wall time they took together and the calls that
 * failed. Percentiles are nearest-rank. Not thread-safe: each writer thread fills its own and {@link #addAll merges}
 * it at the end.
 */
final class Samples {

  private long[] nanos = new long[256];
  private int count;
  private long sum;
  private long wallNanos;
  private int errors;
  private String firstError;

  void add(long durationNanos) {
    if (count == nanos.length) {
      nanos = Arrays.copyOf(nanos, count * 2);
    }
    nanos[count++] = durationNanos;
    sum += durationNanos;
  }

  /** Counts a failed call; the first failure's message is kept for the report. */
  void error(Exception failure) {
    if (errors++ == 0) {
      firstError = failure.toString();
    }
  }

  /** Adds wall time during which this side's calls ran (concurrently, for several writers). */
  void addWall(long nanos) {
    wallNanos += nanos;
  }

  void addAll(Samples other) {
    for (int i = 0; i < other.count; i++) {
      add(other.nanos[i]);
    }
    wallNanos += other.wallNanos;
    errors += other.errors;
    if (firstError == null) {
      firstError = other.firstError;
    }
  }

  int count() {
    return count;
  }

  int errors() {
    return errors;
  }

  /** The message of the first failed call, or null. */
  String firstError() {
    return firstError;
  }

  /** The {@code percent}-th percentile of the call durations, in milliseconds; NaN without calls. */
  double millis(double percent) {
    if (count == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(percent / 100 * count);
    return sorted[Math.max(0, rank - 1)] / 1e6;
  }

  double p50() {
    return millis(50);
  }

  double p99() {
    return millis(99);
  }

  /**
   * Units per second: {@code unitsPerCall} for each call, over the wall time if one was added, else over the sum of
   * the call durations (calls made one at a time).
   */
  double perSecond(double unitsPerCall) {
    long span = wallNanos > 0 ? wallNanos : sum;
    return span == 0 ? Double.NaN : count * unitsPerCall * 1e9 / span;
  }
}
