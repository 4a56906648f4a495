package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;

/**
 * A store whose search cursor is inclusive: each page starts with the previous page's last hit, so pages repeat it
 * (and a page of one never moves on).
 */
class BrokenSearchPagesRepeatTest extends BrokenStoreTest {

  BrokenSearchPagesRepeatTest() {
    super(new Caught(SessionStoreConformance.Search.class, "pagesNeverRepeatOrSkip", "hits of plum before page"),
        new Caught(SessionStoreConformance.Search.class, "pagesNeverRepeatOrSkipEqualHits",
            "hits of fig before page"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSearch(search -> new HitListSearch(search) {
      @Override
      protected int nextOffset(int offset, int limit) {
        return offset + limit - 1;
      }
    });
  }
}
