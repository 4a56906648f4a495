package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that checks a step's token where it appends the step's events, and nowhere else: a superseded owner's step
 * without events (a metadata merge, a run, a resolution, a checkpoint, a cut) is stored.
 */
class BrokenFenceCheckedOnlyForEventsTest extends BrokenStoreTest {

  BrokenFenceCheckedOnlyForEventsTest() {
    super(SessionStoreConformance.WriterFencing.class, "everyKindOfWriteOfASupersededOwnerIsRefused",
        "step of the superseded owner holding only a metadata merge: FencedWriterException");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withCommit(step -> correct.commit(step.events().isEmpty()
        ? SideFencing.withoutFence(step) : step));
  }
}
