package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;

/**
 * What does it cost to make ADK's sessions durable: {@value AdkAppendRounds#THREADS} threads appending
 * {@value AdkAppendRounds#EVENTS} ADK events each, every thread on its own session, through {@code session-store-adk}
 * on PostgreSQL, against ADK's own {@code InMemorySessionService} as the floor (ADK for Java 1.8.0, the newest on Maven
 * Central, has no database session service to compare with). No target: the row says what durability costs over
 * keeping nothing. Rounds as {@link AdkAppendRounds} describes; the library's store works in a schema of its own
 * through the harness's pool ({@link PgSchema}).
 */
final class AdkAppendsPostgres implements Measure {

  static final String NAME = "ADK `appendEvent`, " + AdkAppendRounds.THREADS + " threads × " + AdkAppendRounds.EVENTS
      + " events on their own sessions, PostgreSQL store, vs ADK's `InMemorySessionService` as the floor (round time)";
  /** What ADK's side does, for both rows. */
  static final String BASELINE = "ADK 1.8.0's `InMemorySessionService.appendEvent`: the event added to the session "
      + "object's list and its state delta put into nested `ConcurrentHashMap`s (the session's, the user's, the "
      + "app's); nothing serialized, nothing durable. A round is " + AdkAppendRounds.THREADS + " threads, each "
      + "appending " + AdkAppendRounds.EVENTS + " events (model text, a session key and a `user:` key in the state "
      + "delta) to a session of its own created before the round; the round's wall time from the first thread's start "
      + "to the last append's return. CPU and allocation are those of all of the JVM's Java threads during the round, "
      + "per append. Rounds of the two sides alternate in random order. After the rounds, every session of the "
      + "library's last round is read back with `getSession`: its events and last state.";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    try (PgSchema schema = bench.schemaWithTables("adk_appends");
        SessionStore store = schema.openStore()) {
      AdkAppendRounds.run(store, bench.scale().warmup(10), bench.scale().calls(60), NAME, "—", ratio -> true,
          results);
    }
    results.baseline(NAME, BASELINE + " The library's side is `SessionStoreSessionService` over the JDBC store on "
        + "PostgreSQL (its schema of its own, the harness's HikariCP pool).");
  }
}
