package dev.sessionstore.benchmarks.sidebyside;

/**
 * How long does appending one event to a session take: {@code SessionRepository.appendEvent} through the library's
 * repository against spring-ai-session's {@code JdbcSessionRepository}, same PostgreSQL, one session per side
 * growing by the same events.
 */
final class SpringAiSessionAppend implements Measure {

  static final String NAME = "spring-ai-session: append one event, vs its `JdbcSessionRepository`";
  private static final String SESSION = "append";

  @Override
  public String name() {
    return "append one event, against spring-ai-session's JdbcSessionRepository";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    try (SpringAiSessionSides sides = SpringAiSessionSides.open(bench, "sais_append")) {
      sides.createSession(SESSION);
      Sides appends = Interleave.pairs(bench.scale().warmup(300), bench.scale().calls(2_000),
          Trial.timed(i -> SpringAiSessionSides.event(SESSION, "a-" + i, i), sides.library()::appendEvent),
          Trial.timed(i -> SpringAiSessionSides.event(SESSION, "a-" + i, i), sides.baseline()::appendEvent));
      results.add(new Row(NAME, Numbers.percentiles(appends.library()),
          "spring-ai-session " + Numbers.percentiles(appends.baseline()),
          Numbers.ratio(appends.latencyRatio()) + " faster", "—", true));
      results.baseline(NAME, "spring-ai-session 0.6.0 `JdbcSessionRepository.appendEvent(event)` (its PostgreSQL "
          + "tables from the script its jar ships, in a schema of its own on the same database, a pool of the same "
          + "settings): it counts the session's rows to check that the session exists, then in one transaction "
          + "inserts the event (its id is the table's primary key) and increments the session's `event_version`. "
          + "The library's side is `SessionStoreSessionRepository.appendEvent` over the PostgreSQL store: it reads "
          + "the session to check that it exists, then appends the event (idempotent by id within the session). "
          + "Both append the same events (same ids, messages alternating user and assistant, the same text).");
    }
  }
}
