package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.StepResult;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose step result reports the seq of the step's last event as the last seq, or, for a step without events,
 * the seq the log ended at before the step: wrong for a step replayed after later appends, for a new event listed
 * before a replayed one, and for a cut.
 */
class BrokenStepLastSeqFromItsLastEventTest extends BrokenStoreTest {

  BrokenStepLastSeqFromItsLastEventTest() {
    super(new Caught(SessionStoreConformance.LastSeq.class, "aReplayedStepReportsTheLogsLastSeq",
            "StepResult.lastSeq of a step replayed after a later append"),
        new Caught(SessionStoreConformance.LastSeq.class, "aCutAloneReportsTheLastSeqAfterTheCut",
            "StepResult.lastSeq of a step cutting at 3"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withCommit(step -> commit(correct, step));
  }

  private static StepOutcome commit(SessionStore correct, Step step) {
    long before = correct.events().lastSeq(step.sessionId());
    StepOutcome outcome = correct.commit(step);
    if (outcome.committed().isEmpty()) {
      return outcome;
    }
    StepResult r = outcome.committed().get();
    long reported = r.events().isEmpty() ? before : r.events().get(r.events().size() - 1).seq();
    return new StepOutcome.Committed(new StepResult(r.session().withLastSeq(reported), r.run(), r.removed(),
        r.events(), r.toolCalls(), r.resolutions(), r.summary(), r.checkpoints(), r.modelCall()));
  }
}
