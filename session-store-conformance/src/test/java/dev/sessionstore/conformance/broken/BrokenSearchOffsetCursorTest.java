package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose search cursor is an offset into the results, as {@code LIMIT n OFFSET m} paging is: hits appended
 * between pages push earlier ones to the next page again, and the cursor fits any query.
 */
class BrokenSearchOffsetCursorTest extends BrokenStoreTest {

  BrokenSearchOffsetCursorTest() {
    super(new Caught(SessionStoreConformance.Search.class, "pagingSurvivesAppendsBetweenPages",
            "hits seen while appending between pages"),
        new Caught(SessionStoreConformance.Search.class, "aCursorOfAnotherQueryIsRefused",
            "grape's cursor on melon"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSearch(HitListSearch::new);
  }
}
