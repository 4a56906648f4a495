package dev.sessionstore.benchmarks.sidebyside;

import java.time.Duration;

/**
 * How much each measure does: {@link #FULL} for published numbers (the whole set in a few minutes on 2 cores),
 * {@link #SMOKE} to check in a build that every measure runs and the outputs come out well-formed, numbers aside.
 *
 * @param name          shown in the report
 * @param share         the share of each measure's full call count to run (at least {@link #MIN_CALLS})
 * @param phase         how long each side writes per round in the writer measures
 * @param longSession   events in the session the tail and revival reads read
 * @param forkedSession events in the session the fork measures fork
 * @param conversation  messages in the conversation the next message is added to
 */
public record Scale(String name, double share, Duration phase, int longSession, int forkedSession,
    int conversation) {

  static final int MIN_CALLS = 2;

  static final Scale FULL = new Scale("full", 1, Duration.ofSeconds(1), 1_000_000, 100_000, 1_000);
  static final Scale SMOKE = new Scale("smoke", 0, Duration.ofMillis(40), 2_000, 1_000, 20);

  /** How many calls (or rounds) to run of a measure that runs {@code full} in the full scale. */
  public int calls(int full) {
    return Math.max(MIN_CALLS, (int) Math.round(full * share));
  }

  /**
   * How many items (checkpoints in a thread, say) a measure that fills {@code full} in the full scale fills: all of
   * them in the full scale, a hundredth (at least {@link #MIN_CALLS}) in the smoke scale.
   */
  int fill(int full) {
    return share >= 1 ? full : Math.max(MIN_CALLS, full / 100);
  }

  /** How many warm-up calls (or rounds) to run of a measure that warms up with {@code full} in the full scale. */
  public int warmup(int full) {
    return Math.max(1, (int) Math.round(full * share));
  }
}
