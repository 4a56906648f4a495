package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.Step;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.conformance.bare.BareStore;
import java.time.Clock;

/**
 * A bare store (no optional capability) whose step commits its session write, run and events and silently drops
 * every member it has no capability for (tool calls registered or resolved, deadlines, the summary, checkpoints, the
 * cut) instead of refusing the step: the caller believes a pending call or a summary was stored. Found by an
 * adapter written from the docs; the kit let it pass while it skipped every group of an undeclared capability. Each
 * member is caught by its own test of the absent-capability group.
 */
class BrokenStepDropsUnsupportedMembersTest extends BrokenStoreTest {

  BrokenStepDropsUnsupportedMembersTest() {
    super(new Caught(SessionStoreConformance.AbsentCapabilities.class, "withoutToolCalls",
            "a step of a held session with a tool call registered"),
        new Caught(SessionStoreConformance.AbsentCapabilities.class, "withoutSummaries",
            "a step of a held session with a summary"),
        new Caught(SessionStoreConformance.AbsentCapabilities.class, "withoutCheckpoints",
            "a step of a held session with a checkpoint put"),
        new Caught(SessionStoreConformance.AbsentCapabilities.class, "withoutTruncation",
            "a step of a held session with a cut"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore bare = BareStore.create(clock);
    return ForwardingStore.of(bare).withCommit(step -> bare.commit(requiredMembers(step)));
  }

  /** The step's session write, run, events and expected seq; the rest dropped. */
  private static Step requiredMembers(Step step) {
    Step.Builder kept = Step.builder(step.sessionId()).events(step.events());
    step.session().ifPresent(kept::session);
    step.run().ifPresent(kept::run);
    step.expectedLastSeq().ifPresent(kept::expectLastSeq);
    return kept.build();
  }
}
