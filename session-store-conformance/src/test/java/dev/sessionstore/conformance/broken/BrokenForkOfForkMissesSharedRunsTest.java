package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.Run;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A store whose fork of a fork takes only the runs its parent's own events name, not those first named in the part
 * the parent shares with its own parent: run positions that are not carried down a second level.
 */
class BrokenForkOfForkMissesSharedRunsTest extends BrokenStoreTest {

  BrokenForkOfForkMissesSharedRunsTest() {
    super(SessionStoreConformance.Forks.class, "forksOfForksAndOfTruncatedLogsTakeTheRunsTheirPrefixNames",
        "runs of a fork of the fork at its fork point");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    ForkTracker[] forks = new ForkTracker[1];
    return ForwardingStore.of(correct)
        .withSessions(sessions -> forks[0] = new ForkTracker(sessions))
        .withRuns(runs -> new ForwardingRuns(runs) {
          @Override
          public List<Run> list(String sessionId) {
            Optional<ForkOrigin> sharedByParent = forks[0].origin(sessionId)
                .flatMap(origin -> forks[0].origin(origin.sessionId()));
            if (sharedByParent.isEmpty()) {
              return delegate.list(sessionId);
            }
            List<Event> log = correct.events().read(sessionId, EventQuery.all()).items();
            return delegate.list(sessionId).stream()
                .filter(run -> log.stream().filter(event -> run.id().equals(event.runId())).findFirst()
                    .map(first -> first.seq() > sharedByParent.get().seq()).orElse(true))
                .toList();
          }
        });
  }
}
