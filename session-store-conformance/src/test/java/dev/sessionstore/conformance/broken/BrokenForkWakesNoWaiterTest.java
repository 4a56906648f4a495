package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose waiting reads are woken by appends and step commits but not by the other writes that create a
 * session's events, forks and archive imports: either, creating the session a read waits on, leaves the read asleep
 * until its timeout.
 */
class BrokenForkWakesNoWaiterTest extends BrokenStoreTest {

  BrokenForkWakesNoWaiterTest() {
    super(new Caught(SessionStoreConformance.WaitingReads.class, "wakesWhenAForkCreatesTheSession", "nothing woke it"),
        new Caught(SessionStoreConformance.WaitingReads.class, "wakesWhenAnImportCreatesTheSession",
            "nothing woke it"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    AppendsWakeWaitersLog log = new AppendsWakeWaitersLog(correct.events());
    return ForwardingStore.of(correct).withEvents(events -> log).withCommit(step -> {
      try {
        return correct.commit(step);
      } finally {
        log.wake();
      }
    });
  }
}
