package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.spi.SearchResults;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A store whose search index is not cut with the log: events removed by truncation, or by a step's cut, are still
 * found (after the live hits).
 */
class BrokenSearchFindsTruncatedEventsTest extends BrokenStoreTest {

  BrokenSearchFindsTruncatedEventsTest() {
    super(new Caught(SessionStoreConformance.Search.class, "truncationRemovesTheCutEvents",
            "hits of draft after truncating at 2"),
        new Caught(SessionStoreConformance.Search.class, "aCuttingStepReplacesTheCutEvents",
            "hits of the cut event's word"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    Queue<Event> cut = new ConcurrentLinkedQueue<>();
    SessionStore correct = correctStore(clock);
    return ForwardingStore.of(correct)
        .withEvents(log -> new ForwardingEventLog(log) {
          @Override
          public int truncate(String sessionId, long fromSeq) {
            remember(correct, sessionId, fromSeq, cut);
            return delegate.truncate(sessionId, fromSeq);
          }
        })
        .withCommit(step -> {
          step.truncateFrom().ifPresent(from -> remember(correct, step.sessionId(), from, cut));
          return correct.commit(step);
        })
        .withSearch(search -> new HitListSearch(search) {
          @Override
          protected List<SearchHit> hits(SearchQuery query, List<SearchHit> correctHits) {
            List<SearchHit> hits = new ArrayList<>(correctHits);
            for (Event event : cut) {
              if ((query.sessionId() == null || query.sessionId().equals(event.sessionId())) && query.admits(event)) {
                SearchResults.hit(query.terms(), event).ifPresent(hits::add);
              }
            }
            return hits;
          }
        });
  }

  private static void remember(SessionStore store, String sessionId, long fromSeq, Queue<Event> cut) {
    store.events().read(sessionId, EventQuery.all().after(fromSeq - 1)).items().forEach(cut::add);
  }
}
