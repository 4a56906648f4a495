package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store that checks a step's token and then writes the step, outside the lock its claims take: a claim that slips
 * in between does not stop the superseded writer, whose step lands after its successor's.
 */
class BrokenFenceCheckedBeforeTheWriteTest extends BrokenStoreTest {

  BrokenFenceCheckedBeforeTheWriteTest() {
    super(SessionStoreConformance.WriterFencing.class, "claimsRacingWritesNeverLetAnOlderTokenWriteAfterANewerOne",
        "tokens of the stored events, in log order");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return new SideFencing(previous -> previous == null ? 1 : previous.token() + 1, false)
        .over(correctStore(clock));
  }
}
