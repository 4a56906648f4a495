package dev.sessionstore.benchmarks.sidebyside;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.ai.session.EventFilter;
import org.springframework.ai.session.SessionEvent;
import org.springframework.ai.session.SessionRepository;

/**
 * How many appends per second do {@value #WRITERS} threads appending to one session at once store, through the
 * library's repository and spring-ai-session's {@code JdbcSessionRepository} ({@link Interleave#phases}), and is
 * anything lost? Afterwards each side's session is read back through its own {@code findEvents}: every append that
 * returned must be there once, and the event version must count the stored events. Losses and duplicates are
 * reported per side, the baseline's as well.
 */
final class SpringAiSessionWriters implements Measure {

  static final int WRITERS = 16;
  static final String NAME = "spring-ai-session: " + WRITERS + " threads appending to one session, vs its "
      + "`JdbcSessionRepository`";
  private static final String SESSION = "shared";

  @Override
  public String name() {
    return WRITERS + " threads appending to one session, against spring-ai-session's JdbcSessionRepository";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    try (SpringAiSessionSides sides = SpringAiSessionSides.open(bench, "sais_writers")) {
      sides.createSession(SESSION);
      Set<String> libraryReturned = ConcurrentHashMap.newKeySet();
      Set<String> baselineReturned = ConcurrentHashMap.newKeySet();
      Sides writers = Interleave.phases(1, bench.scale().calls(5), bench.scale().phase(), WRITERS,
          appending(sides.library(), libraryReturned), appending(sides.baseline(), baselineReturned));
      Tally library = Tally.of(sides.library(), libraryReturned);
      Tally baseline = Tally.of(sides.baseline(), baselineReturned);
      results.add(new Row(NAME, WriterSweep.cell(writers.library()) + " · " + library,
          "spring-ai-session " + WriterSweep.cell(writers.baseline()) + " · " + baseline,
          Numbers.ratio(writers.throughputRatio(1)), "nothing lost or duplicated",
          library.intact() && writers.library().errors() == 0));
      results.baseline(NAME, "spring-ai-session 0.6.0 `JdbcSessionRepository.appendEvent` from " + WRITERS
          + " threads on one session (its tables and pool as in the append row): each insert runs unlocked and "
          + "the `event_version` update then queues on the session's row until the transaction before it commits; "
          + "the event's position is its identity `seq`. The library's side is `SessionStoreSessionRepository."
          + "appendEvent` from as many threads, queued on the session's head. Timed phases of each side alternate "
          + "in random order. Afterwards each side's session is read through its own `findEvents(EventFilter.all())`"
          + ": **lost** counts appends that returned but are not there, **duplicated** rows beyond one per id, "
          + "**unreturned** stored events whose append did not return (failed); the event version is compared with "
          + "the stored count.");
    }
  }

  /** A writer's call: appends event {@code i} of this side and notes its id once the append returned. */
  private static Trial appending(SessionRepository side, Set<String> returned) {
    return Trial.timed(i -> SpringAiSessionSides.event(SESSION, "w-" + i, i), event -> {
      side.appendEvent(event);
      returned.add(event.getId());
    });
  }

  /**
   * What a side's session holds after the writers, against the appends that returned.
   *
   * @param returned    appends that returned
   * @param stored      events read back
   * @param lost        returned but not stored
   * @param duplicated  stored rows beyond one per id
   * @param unreturned  stored but not returned
   * @param version     the session's event version
   */
  private record Tally(int returned, int stored, int lost, int duplicated, int unreturned, long version) {

    static Tally of(SessionRepository side, Set<String> returned) {
      List<String> stored = side.findEvents(SESSION, EventFilter.all()).stream().map(SessionEvent::getId).toList();
      Set<String> distinct = new HashSet<>(stored);
      int lost = (int) returned.stream().filter(id -> !distinct.contains(id)).count();
      int unreturned = (int) distinct.stream().filter(id -> !returned.contains(id)).count();
      return new Tally(returned.size(), stored.size(), lost, stored.size() - distinct.size(), unreturned,
          side.getEventVersion(SESSION));
    }

    boolean intact() {
      return lost == 0 && duplicated == 0 && unreturned == 0 && version == stored;
    }

    @Override
    public String toString() {
      return Numbers.count(returned) + " returned, " + Numbers.count(stored) + " stored · lost " + lost
          + " · duplicated " + duplicated + " · unreturned " + unreturned + " · version " + Numbers.count(version)
          + (version == stored ? "" : " (NOT the stored count)");
    }
  }
}
