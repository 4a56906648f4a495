package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that commits a step member by member: the session and run upserts go first, each on its own, so a step
 * that then fails on its log (a seq conflict) leaves them written.
 */
class BrokenStepCommittedMemberByMemberTest extends BrokenStoreTest {

  BrokenStepCommittedMemberByMemberTest() {
    super(SessionStoreConformance.Steps.class, "everyFailureKindLeavesTheStoreUnchanged",
        "everything the session shows after failure 0");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withCommit(step -> {
      step.session().ifPresent(correct.sessions()::save);
      step.run().ifPresent(correct.runs()::save);
      return correct.commit(step);
    });
  }
}
