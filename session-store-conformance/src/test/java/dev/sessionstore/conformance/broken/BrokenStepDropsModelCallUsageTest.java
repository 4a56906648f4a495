package dev.sessionstore.conformance.broken;

import dev.sessionstore.NewModelCall;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Step;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose step writes the turn's audit row without its usage (stored as the empty object), while
 * {@code modelCalls().record} stores it whole.
 */
class BrokenStepDropsModelCallUsageTest extends BrokenStoreTest {

  BrokenStepDropsModelCallUsageTest() {
    super(SessionStoreConformance.Steps.class, "aStepRecordsTheModelCall", "audit rows after the step");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withCommit(step -> correct.commit(new Step(step.sessionId(), step.session(),
        step.run(), step.truncateFrom(), step.events(), step.toolCalls(), step.resolutions(), step.deadlines(),
        step.summary(), step.checkpoints(), step.expectedLastSeq(),
        step.modelCall().map(call -> NewModelCall.of(call.turn(), call.model(), call.context())), step.fence())));
  }
}
