package dev.sessionstore.benchmarks.sidebyside;

import java.util.List;
import org.springframework.ai.session.EventFilter;
import org.springframework.ai.session.SessionEvent;
import org.springframework.ai.session.SessionRepository;

/**
 * How long does a compaction take: {@code compactEvents} at the session's current version, archiving all but the
 * last {@value #RETAINED} events of a history of {@link Scale#conversation()} events (1,000 at full scale), through
 * the library's repository and spring-ai-session's {@code JdbcSessionRepository}. Every call compacts a fresh copy of
 * the same session (copied server-side from one filled through each side's {@code appendEvent}), whose events and
 * version it reads first; those untimed steps and a check afterwards (the compaction won, and the active events are
 * exactly the retained ones) run outside the measured span.
 */
final class SpringAiSessionCompaction implements Measure {

  static final int RETAINED = 20;
  private static final String TEMPLATE = "template";

  @Override
  public String name() {
    return "a compaction, against spring-ai-session's JdbcSessionRepository";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    int history = Math.max(bench.scale().conversation(), 2 * RETAINED);
    String name = "spring-ai-session: `compactEvents` archiving all but the last " + RETAINED + " of "
        + Numbers.count(history) + " events, vs its `JdbcSessionRepository`";
    try (SpringAiSessionSides sides = SpringAiSessionSides.open(bench, "sais_compact")) {
      sides.createSession(TEMPLATE, history);
      sides.analyze();
      Sides compactions = Interleave.pairs(bench.scale().warmup(5), bench.scale().calls(50),
          i -> {
            String session = "compacted-" + i;
            sides.copyLibrarySession(TEMPLATE, session);
            return compact(sides.library(), session);
          },
          i -> {
            String session = "compacted-" + i;
            sides.copyBaselineSession(TEMPLATE, session);
            return compact(sides.baseline(), session);
          });
      results.add(new Row(name, Numbers.percentiles(compactions.library()),
          "spring-ai-session " + Numbers.percentiles(compactions.baseline()),
          Numbers.ratio(compactions.latencyRatio()) + " faster", "—", true));
      results.baseline(name, "spring-ai-session 0.6.0 `JdbcSessionRepository.compactEvents(sessionId, archived, "
          + "retained, expectedVersion)` with the first " + Numbers.count(history - RETAINED) + " events as "
          + "archived, the last " + RETAINED + " as retained and the version read before: it counts the session's "
          + "rows, then in one transaction moves `event_version` if it is still the expected one, flags each "
          + "archived event (a JDBC batch of one `UPDATE` per id), deletes the session's active events and inserts "
          + "the retained ones again (a JDBC batch). The library's side is `SessionStoreSessionRepository."
          + "compactEvents` with the same arguments: it reads the session and the latest summary, looks each "
          + "retained event up by id (all are in the log), then commits one step expecting the version: a marker "
          + "event and a summary holding the " + RETAINED + "-event window; nothing is rewritten or deleted. Each "
          + "call on a fresh server-side copy of the same session, filled through `appendEvent` on each side.");
    }
  }

  /**
   * Compacts {@code session} on {@code side} as the measure describes and returns the nanoseconds the
   * {@code compactEvents} call took; fails the measure when it loses or leaves another active window. Deletes the
   * session afterwards, untimed.
   */
  private static long compact(SessionRepository side, String session) {
    List<SessionEvent> events = side.findEvents(session, EventFilter.all());
    long version = side.getEventVersion(session);
    List<SessionEvent> archived = events.subList(0, events.size() - RETAINED);
    List<SessionEvent> retained = events.subList(events.size() - RETAINED, events.size());
    long start = System.nanoTime();
    boolean won = side.compactEvents(session, archived, retained, version);
    long elapsed = System.nanoTime() - start;
    List<String> active = side.findEvents(session, EventFilter.active()).stream().map(SessionEvent::getId).toList();
    List<String> expected = retained.stream().map(SessionEvent::getId).toList();
    if (!won || !active.equals(expected)) {
      throw new IllegalStateException("compactEvents(" + session + ") at version " + version + " on "
          + side.getClass().getSimpleName() + ": won " + won + ", active " + active + ", not " + expected);
    }
    side.delete(session);
    return elapsed;
  }
}
