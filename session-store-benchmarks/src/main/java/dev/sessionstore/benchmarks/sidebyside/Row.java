package dev.sessionstore.benchmarks.sidebyside;

/**
 * One line of the published table: what the library measured, what its baseline measured, their ratio, the target,
 * whether the library met it, and the calls that ran before the measured ones ({@code ""} where the row does not
 * state them: its measure's javadoc does).
 */
public record Row(String measure, String library, String baseline, String ratio, String target, boolean met,
    String warmup) {

  /** A row whose warm-up its measure's javadoc states. */
  public Row(String measure, String library, String baseline, String ratio, String target, boolean met) {
    this(measure, library, baseline, ratio, target, met, "");
  }
}
