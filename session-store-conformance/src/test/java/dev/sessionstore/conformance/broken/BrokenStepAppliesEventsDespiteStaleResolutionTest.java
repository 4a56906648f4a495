package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store that reports a stale resolution as a rejected step but appends the step's events anyway. */
class BrokenStepAppliesEventsDespiteStaleResolutionTest extends BrokenStoreTest {

  BrokenStepAppliesEventsDespiteStaleResolutionTest() {
    super(SessionStoreConformance.Steps.class, "aStaleResolutionRejectsTheStep",
        "everything the session shows after a rejected step");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withCommit(step -> {
      StepOutcome outcome = correct.commit(step);
      if (outcome instanceof StepOutcome.Rejected) {
        correct.events().appendAll(step.sessionId(), step.events());
      }
      return outcome;
    });
  }
}
