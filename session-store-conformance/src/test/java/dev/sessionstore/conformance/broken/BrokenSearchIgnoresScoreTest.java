package dev.sessionstore.conformance.broken;

import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A store whose search ignores the score and orders hits newest first only, as an index read in time order with the
 * score left for show.
 */
class BrokenSearchIgnoresScoreTest extends BrokenStoreTest {

  BrokenSearchIgnoresScoreTest() {
    super(new Caught(SessionStoreConformance.Search.class, "hitsRankByScoreThenNewestThenSessionThenSeq",
            "order of the hits of pear"),
        new Caught(SessionStoreConformance.Search.class, "aLimitKeepsTheBestHits", "the one best hit of kiwi"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSearch(search -> new HitListSearch(search) {
      @Override
      protected List<SearchHit> hits(SearchQuery query, List<SearchHit> correct) {
        List<SearchHit> newestFirst = new ArrayList<>(correct);
        newestFirst.sort(Comparator.comparing((SearchHit hit) -> hit.event().timestamp()).reversed()
            .thenComparing(hit -> hit.event().sessionId())
            .thenComparing(Comparator.comparingLong((SearchHit hit) -> hit.event().seq()).reversed()));
        return newestFirst;
      }
    });
  }
}
