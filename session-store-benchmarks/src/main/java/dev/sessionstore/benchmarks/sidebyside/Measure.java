package dev.sessionstore.benchmarks.sidebyside;

/**
 * One question of the side-by-side set, answered for the library and for its baseline, interleaved. A measure works
 * in schemas and stores of its own, which it drops and closes before it returns. Public so that other modules' mains
 * can run measures of their own through {@link Harness#run(Class, String[], java.util.List, java.util.List)}; its
 * rows are published under its class's simple name, which must be unique among the published measures.
 */
public interface Measure {

  /** What the measure is called in progress output. */
  String name();

  /** Runs the measure at {@code bench}'s scale and adds its rows, baselines and chart panels to {@code results}. */
  void run(Bench bench, Results results) throws Exception;
}
