package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;

/**
 * A store whose retention cuts nothing when the cut is a single event (an off-by-one in its "nothing to cut" check),
 * so a chapter of one event is never removed.
 */
class BrokenRetentionSparesALoneEventTest extends BrokenStoreTest {

  BrokenRetentionSparesALoneEventTest() {
    super(SessionStoreConformance.Retention.class, "aChapterOfOneEventIsCut", "events cut by keeping 4 of 5");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return new SparingRetention(correctStore(clock), (session, cut) -> cut.size() == 1 ? cut : List.of()).store();
  }
}
