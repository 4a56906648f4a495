package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose waiting reads are woken by appends and forks but not by step commits: the events of a step reach a
 * waiting read only at its timeout.
 */
class BrokenStepWakesNoWaiterTest extends BrokenStoreTest {

  BrokenStepWakesNoWaiterTest() {
    super(SessionStoreConformance.WaitingReads.class, "wakesOnAStepCommit", "nothing woke it");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    AppendsWakeWaitersLog log = new AppendsWakeWaitersLog(correct.events());
    return ForwardingStore.of(correct).withEvents(events -> log)
        .withSessions(sessions -> new ForwardingSessions(sessions) {
          @Override
          public Session fork(String sessionId, long atSeq, String newSessionId) {
            try {
              return delegate.fork(sessionId, atSeq, newSessionId);
            } finally {
              log.wake();
            }
          }
        });
  }
}
