package dev.sessionstore.benchmarks.sidebyside;

import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.session.EventFilter;
import org.springframework.ai.session.SessionEvent;
import org.springframework.ai.session.SessionRepository;

/**
 * How long does reading the last {@value #LAST} events take ({@code findEvents} with {@code EventFilter.lastN}) at
 * histories of 10, 1,000 and 10,000 events, through the library's repository and spring-ai-session's
 * {@code JdbcSessionRepository}, and does the library's read stay flat as the history grows? One session per length
 * on each side, all six in one run ({@link Interleave#rounds}): each round reads each of them once, in a random
 * order, so every length and side meets the same conditions. The sessions are filled through each side's
 * {@code appendEvent}, and each side's answer is checked once (the last {@value #LAST} ids, oldest first) before the
 * measured reads.
 */
final class SpringAiSessionTail implements Measure {

  static final int LAST = 20;
  private static final int[] LENGTHS = {10, 1_000, 10_000};
  private static final int[] SMOKE_LENGTHS = {10, 40, 80};
  private static final double FLAT = 1.5;

  @Override
  public String name() {
    return "findEvents last 20 by history length, against spring-ai-session's JdbcSessionRepository";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    int[] lengths = bench.scale().share() == 0 ? SMOKE_LENGTHS : LENGTHS;
    try (SpringAiSessionSides sides = SpringAiSessionSides.open(bench, "sais_tail")) {
      EventFilter last = EventFilter.lastN(LAST);
      List<Trial> trials = new ArrayList<>();
      for (int length : lengths) {
        String session = "history-" + length;
        sides.createSession(session, length);
        for (SessionRepository side : List.of(sides.library(), sides.baseline())) {
          check(side.findEvents(session, last), session, length);
          trials.add(Trial.timed(i -> side.findEvents(session, last)));
        }
      }
      sides.analyze();
      List<Samples> samples = Interleave.rounds(bench.scale().warmup(200), bench.scale().calls(1_000), trials);

      Samples shortest = samples.get(0);
      List<Integer> points = new ArrayList<>();
      List<Double> libraryRates = new ArrayList<>();
      List<Double> baselineRates = new ArrayList<>();
      for (int l = 0; l < lengths.length; l++) {
        Samples library = samples.get(2 * l);
        Samples baseline = samples.get(2 * l + 1);
        double growth = library.p50() / shortest.p50();
        boolean longest = l == lengths.length - 1;
        String name = "spring-ai-session: `findEvents` last " + LAST + " at " + Numbers.count(lengths[l])
            + " events, vs its `JdbcSessionRepository`";
        results.add(new Row(name, Numbers.percentiles(library) + " · " + Numbers.ratio(growth) + " the "
            + Numbers.count(lengths[0]) + "-event p50", "spring-ai-session " + Numbers.percentiles(baseline),
            Numbers.ratio(baseline.p50() / library.p50()) + " faster",
            longest ? "library p50 ≤ " + FLAT + "× its " + Numbers.count(lengths[0]) + "-event p50" : "—",
            !longest || growth <= FLAT));
        if (l == 0) {
          results.baseline(name, BASELINE);
        }
        points.add(lengths[l]);
        libraryRates.add(1e3 / library.p50());
        baselineRates.add(1e3 / baseline.p50());
      }
      results.add(new Panel("spring-ai-session findEvents last " + LAST + " (reads/s at the p50; baseline: "
          + "JdbcSessionRepository)", "events in the session", "reads", points, libraryRates, baselineRates, true));
    }
  }

  /** Fails the measure unless {@code read} is the last {@value #LAST} events of the session, oldest first. */
  private static void check(List<SessionEvent> read, String session, int length) {
    List<String> expected = new ArrayList<>();
    for (int i = Math.max(0, length - LAST); i < length; i++) {
      expected.add(session + "-" + i);
    }
    List<String> ids = read.stream().map(SessionEvent::getId).toList();
    if (!ids.equals(expected)) {
      throw new IllegalStateException("findEvents(" + session + ", lastN " + LAST + ") read " + ids + ", not "
          + expected);
    }
  }

  private static final String BASELINE = "spring-ai-session 0.6.0 `JdbcSessionRepository.findEvents(sessionId, "
      + "EventFilter.lastN(20))`: one statement, `ORDER BY seq DESC LIMIT 20` on its index `(session_id, seq)`, "
      + "reversed in Java, each row mapped back to a `SessionEvent` (its tables from the script its jar ships, a "
      + "schema of its own on the same database, a pool of the same settings). The library's side is "
      + "`SessionStoreSessionRepository.findEvents` with the same filter over the PostgreSQL store: one statement, "
      + "the last 20 messages and compaction markers from the end of the log (a compaction is read only on "
      + "reaching its marker; none here), each decoded through the Spring AI codec. Sessions of "
      + "10, 1,000 and 10,000 events on each side, filled through `appendEvent` with the same events; the six "
      + "reads of a round run in a random order. The library's cell also gives its p50 over its own p50 at 10 "
      + "events.";
}
