package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.StoreKind;

/**
 * Do {@value AdkAppendRounds#THREADS} threads appending {@value AdkAppendRounds#EVENTS} ADK events each, every thread
 * on its own session, take at most twice as long through {@code session-store-adk} on the in-memory store as through
 * ADK's own {@code InMemorySessionService} (issue 37)? Both keep everything in memory; the library also writes each
 * event as ADK's JSON, checks it, and appends the {@code user:} part of its delta to the user's state log, so that the
 * same code runs on a durable store ({@link AdkAppendsPostgres}). Rounds as {@link AdkAppendRounds} describes.
 */
final class AdkAppendsInMemory implements Measure {

  static final String NAME = "ADK `appendEvent`, " + AdkAppendRounds.THREADS + " threads × " + AdkAppendRounds.EVENTS
      + " events on their own sessions, in-memory store, vs ADK's `InMemorySessionService` (round time)";
  /** ADK's p50 round time over the library's: at least this (the library within twice ADK's time). */
  private static final double TARGET = 0.5;
  /** Warm-up rounds of each side (64,000 appends): a round is short, and both sides' code warms up in them. */
  private static final int WARMUP = 200;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    try (SessionStore store = StoreKind.inMemory()) {
      AdkAppendRounds.run(store, bench.scale().warmup(WARMUP), bench.scale().calls(300), NAME,
          "≥ " + Numbers.round(TARGET) + "× (within 2× ADK's time)", ratio -> ratio >= TARGET, results);
    }
    results.baseline(NAME, AdkAppendsPostgres.BASELINE + " The library's side is `SessionStoreSessionService` over "
        + "`InMemorySessionStore`.");
  }
}
