package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/** A store whose search cursor continues one hit too far: each page after the first skips a hit. */
class BrokenSearchPagesSkipTest extends BrokenStoreTest {

  BrokenSearchPagesSkipTest() {
    super(new Caught(SessionStoreConformance.Search.class, "pagesNeverRepeatOrSkip", "hits of plum paged 1 at a time"),
        new Caught(SessionStoreConformance.Search.class, "pagesNeverRepeatOrSkipEqualHits",
            "hits of fig paged 1 at a time"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSearch(search -> new HitListSearch(search) {
      @Override
      protected int nextOffset(int offset, int limit) {
        return offset + limit + 1;
      }
    });
  }
}
