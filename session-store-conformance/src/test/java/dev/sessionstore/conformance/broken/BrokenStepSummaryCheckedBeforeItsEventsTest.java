package dev.sessionstore.conformance.broken;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewSummary;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that checks the summary of a cutting step against the log as the cut leaves it, before the step's events:
 * a summary of the step's own new events is rejected.
 */
class BrokenStepSummaryCheckedBeforeItsEventsTest extends BrokenStoreTest {

  BrokenStepSummaryCheckedBeforeItsEventsTest() {
    super(SessionStoreConformance.Steps.class, "aSummaryInACuttingStepEndsAtTheNewEnd",
        "past the log's end at the cut");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withCommit(step -> {
      long endAtTheCut = step.truncateFrom().orElse(Long.MAX_VALUE) - 1;
      long summaryEnd = step.summary().map(NewSummary::toSeq).orElse(0L);
      if (summaryEnd > endAtTheCut) {
        throw new InvalidArgumentException("summary.toSeq", "past the log's end at the cut (" + endAtTheCut + ")");
      }
      return correct.commit(step);
    });
  }
}
