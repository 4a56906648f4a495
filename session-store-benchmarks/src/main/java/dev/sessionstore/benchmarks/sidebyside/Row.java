package dev.sessionstore.benchmarks.sidebyside;

/**
 * One line of the published table: what the library measured, what its baseline measured, their ratio, the target
 * and whether the library met it.
 */
record Row(String measure, String library, String baseline, String ratio, String target, boolean met) {
}
