package dev.sessionstore.conformance.broken;

import dev.sessionstore.ForkOrigin;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose fork of a fork, made below the first fork's own fork point, copies up to that first fork point
 * instead: the new fork holds events above the seq it was forked at and its appends continue after them.
 */
class BrokenForkOfForkTakesTheFirstForkPointTest extends BrokenStoreTest {

  BrokenForkOfForkTakesTheFirstForkPointTest() {
    super(new Caught(SessionStoreConformance.Forks.class, "aForkOfAForkBelowItsForkPoint",
            "events of a fork of a fork at 2"),
        new Caught(SessionStoreConformance.LastSeq.class, "aForkStartsAtItsForkPoint",
            "Session.lastSeq returned by a fork of the fork at 1"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSessions(sessions -> new ForwardingSessions(sessions) {
      @Override
      public Session fork(String sessionId, long atSeq) {
        return delegate.fork(sessionId, forkPoint(sessionId, atSeq));
      }

      @Override
      public Session fork(String sessionId, long atSeq, String newSessionId) {
        return delegate.fork(sessionId, forkPoint(sessionId, atSeq), newSessionId);
      }

      private long forkPoint(String sessionId, long atSeq) {
        return delegate.find(sessionId).flatMap(Session::forkOrigin).map(ForkOrigin::seq)
            .filter(firstForkPoint -> firstForkPoint > atSeq).orElse(atSeq);
      }
    });
  }
}
