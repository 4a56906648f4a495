package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store that hands out claims but commits a fenced step as if it carried no token: a stale writer is stored. */
class BrokenFenceIgnoredTest extends BrokenStoreTest {

  BrokenFenceIgnoredTest() {
    super(SessionStoreConformance.WriterFencing.class, "staleTokenStepStoresNothingAndNamesTheWinner",
        "step of the superseded owner: FencedWriterException");
  }

  /** The same store, ignoring the token. */
  static SessionStore ignoringTokens(Clock clock) {
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct).withCommit(step -> correct.commit(SideFencing.withoutFence(step)));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ignoringTokens(clock);
  }
}
