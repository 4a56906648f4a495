package dev.sessionstore.benchmarks.sidebyside;

/** What one measure recorded for the library and for its baseline, measured interleaved. */
record Sides(Samples library, Samples baseline) {

  /** Baseline p50 over library p50: above 1 when the library is faster. */
  double latencyRatio() {
    return baseline.p50() / library.p50();
  }

  /** Library throughput over baseline throughput, with {@code unitsPerCall} units in each call. */
  double throughputRatio(double unitsPerCall) {
    return library.perSecond(unitsPerCall) / baseline.perSecond(unitsPerCall);
  }
}
