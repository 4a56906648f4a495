package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.conformance.bare.BareStore;
import java.time.Clock;

/**
 * A bare store (no {@code FORKS}) whose fork returns {@code null} instead of refusing: a runtime that forks gets no
 * error and a null session. Found by an adapter written from the docs, which the kit passed while the fork group
 * skipped. Caught as a missing refusal, and as a null answer.
 */
class BrokenForkReturnsNullTest extends BrokenStoreTest {

  BrokenForkReturnsNullTest() {
    super(new Caught(SessionStoreConformance.AbsentCapabilities.class, "withoutForks",
            "fork(parent, 1) on a store without FORKS"),
        new Caught(SessionStoreConformance.ReturnedLists.class, "noCallAnswersNull",
            "what sessions().fork(sessionId, atSeq) answered"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(BareStore.create(clock)).withSessions(sessions -> new ForwardingSessions(sessions) {
      @Override
      public Session fork(String sessionId, long atSeq) {
        return null;
      }

      @Override
      public Session fork(String sessionId, long atSeq, String newSessionId) {
        return null;
      }
    });
  }
}
