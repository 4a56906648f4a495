package dev.sessionstore.cli;

import java.io.PrintStream;

/**
 * A progress bar on standard error for long transfers, drawn only when a person watches it (a console is attached):
 * {@code exporting [#########...........] 45% 450/1000 sessions}, redrawn in place at most every 100 ms. Not
 * thread-safe.
 */
final class Progress {

  private static final int BAR_WIDTH = 30;
  private static final long REDRAW_NANOS = 100_000_000L;

  private final PrintStream err;
  private final boolean enabled;
  private final String label;
  private final String unit;
  private final long total;
  private long lastDrawn = Long.MIN_VALUE;
  private boolean drawn;

  /**
   * @param enabled whether to draw at all
   * @param total   the amount at 100 %, at least 1
   * @param unit    what is counted, {@code "sessions"} or {@code "bytes"}
   */
  Progress(PrintStream err, boolean enabled, String label, long total, String unit) {
    this.err = err;
    this.enabled = enabled;
    this.label = label;
    this.total = Math.max(total, 1);
    this.unit = unit;
  }

  void update(long done) {
    long now = System.nanoTime();
    if (!enabled || (drawn && now - lastDrawn < REDRAW_NANOS)) {
      return;
    }
    lastDrawn = now;
    drawn = true;
    long clamped = Math.min(done, total);
    int filled = (int) (BAR_WIDTH * clamped / total);
    err.print("\r" + label + " [" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "] "
        + (100 * clamped / total) + "% " + clamped + "/" + total + " " + unit);
    err.flush();
  }

  /** Draws the final state and ends the line, if anything was drawn. */
  void finish(long done) {
    if (drawn) {
      lastDrawn = Long.MIN_VALUE;
      drawn = false;
      update(done);
      err.println();
    }
  }
}
