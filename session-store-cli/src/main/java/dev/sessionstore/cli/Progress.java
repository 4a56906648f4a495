package dev.sessionstore.cli;

import java.io.PrintStream;

/**
 * A progress bar on standard error for long transfers, drawn only when a person watches it (a console is attached):
 * {@code exporting [#########...........] 45% 450/1000 sessions, 12840 records}, redrawn in place at most every
 * 100 ms. The bar measures the work done (sessions exported, bytes of the file read); the words count what a person
 * thinks of, sessions and records. Not thread-safe.
 */
final class Progress {

  private static final int BAR_WIDTH = 30;
  private static final long REDRAW_NANOS = 100_000_000L;

  private final PrintStream err;
  private final boolean enabled;
  private final String label;
  private final long total;
  private long lastDrawn = Long.MIN_VALUE;
  private boolean drawn;

  /**
   * @param enabled whether to draw at all
   * @param total   the amount of work at 100 %, at least 1
   */
  Progress(PrintStream err, boolean enabled, String label, long total) {
    this.err = err;
    this.enabled = enabled;
    this.label = label;
    this.total = Math.max(total, 1);
  }

  /**
   * Redraws the bar at {@code done} of the total, followed by {@code counts}, unless it was drawn less than 100 ms
   * ago.
   */
  void update(long done, String counts) {
    long now = System.nanoTime();
    if (!enabled || (drawn && now - lastDrawn < REDRAW_NANOS)) {
      return;
    }
    lastDrawn = now;
    drawn = true;
    long clamped = Math.min(done, total);
    int filled = (int) (BAR_WIDTH * clamped / total);
    err.print("\r" + label + " [" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "] "
        + (100 * clamped / total) + "% " + counts);
    err.flush();
  }

  /** Draws the final state and ends the line, if anything was drawn. */
  void finish(long done, String counts) {
    if (drawn) {
      lastDrawn = Long.MIN_VALUE;
      drawn = false;
      update(done, counts);
      err.println();
    }
  }
}
