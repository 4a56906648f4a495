package dev.sessionstore.conformance.broken;

import dev.sessionstore.SeqConflictException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.conformance.bare.BareStore;
import java.time.Clock;

/**
 * A bare store whose step writes its session (and metadata) before it checks the expected seq, so a step failing
 * with {@link SeqConflictException} leaves its metadata behind: the failure says nothing was written, and that is
 * not true. The kit checked step atomicity only on stores declaring five optional capabilities; now both checks run
 * with the required members alone.
 */
class BrokenStaleStepKeepsMetadataTest extends BrokenStoreTest {

  BrokenStaleStepKeepsMetadataTest() {
    super(new Caught(SessionStoreConformance.Steps.class, "aStaleStepOfRequiredMembersStoresNothing",
            "everything the session shows after the stale step"),
        new Caught(SessionStoreConformance.Steps.class, "everyFailureKindLeavesTheStoreUnchanged",
            "everything the session shows after failure 0"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore bare = BareStore.create(clock);
    return ForwardingStore.of(bare).withCommit(step -> {
      try {
        return bare.commit(step);
      } catch (SeqConflictException conflict) {
        step.session().ifPresent(write -> bare.sessions().save(write));
        throw conflict;
      }
    });
  }
}
