package dev.sessionstore.conformance.broken;

import dev.sessionstore.ForkOrigin;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;

/**
 * A store whose retention cut of a fork removes only the events the fork shares: its own events stay, however far the
 * chapter being cut reaches into them.
 */
class BrokenRetentionStopsAtTheForkPointTest extends BrokenStoreTest {

  BrokenRetentionStopsAtTheForkPointTest() {
    super(SessionStoreConformance.Retention.class, "aCutOfAForkReachesIntoItsOwnEvents",
        "fork cut through its first own event");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return new SparingRetention(correctStore(clock), (session, cut) -> session.forkOrigin().map(ForkOrigin::seq)
        .map(forkPoint -> cut.stream().filter(event -> event.seq() > forkPoint).toList()).orElse(List.of()))
        .store();
  }
}
