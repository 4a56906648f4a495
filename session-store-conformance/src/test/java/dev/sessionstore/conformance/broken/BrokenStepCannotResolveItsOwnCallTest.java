package dev.sessionstore.conformance.broken;

import dev.sessionstore.Resolution;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.ToolCallResolution;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A store that checks a step's resolutions against the calls stored before the step: a call the same step registers
 * is not there yet, so a step that registers a call and resolves it is rejected as stale, although {@code Step}
 * promises it commits.
 */
class BrokenStepCannotResolveItsOwnCallTest extends BrokenStoreTest {

  BrokenStepCannotResolveItsOwnCallTest() {
    super(new Caught(SessionStoreConformance.Steps.class, "aStepRegistersAndResolvesACall", "outcome of Step"),
        new Caught(SessionStoreConformance.ToolCallWaits.class, "wakesWhenAStepRegistersAndResolvesTheCall",
            "outcome of the step registering and resolving"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withCommit(step -> {
      Set<String> registered = step.toolCalls().stream().map(ToolCallWrite::id).collect(Collectors.toSet());
      List<Resolution.Stale> notStoredYet = step.resolutions().stream()
          .map(ToolCallResolution::toolCallId)
          .filter(registered::contains)
          .filter(id -> correct.toolCalls().find(step.sessionId(), id).isEmpty())
          .map(id -> new Resolution.Stale(id, Optional.empty()))
          .collect(Collectors.toList());
      return notStoredYet.isEmpty() ? correct.commit(step) : new StepOutcome.Rejected(notStoredYet);
    });
  }
}
