package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A store whose forks search their parent's whole index, not cut at the fork point: a fork finds the parent's events
 * past its fork point and those appended after the fork, as its own.
 */
class BrokenSearchForkSeesPastForkPointTest extends BrokenStoreTest {

  BrokenSearchForkSeesPastForkPointTest() {
    super(new Caught(SessionStoreConformance.Search.class, "aForkFindsItsParentsEventsUpToTheForkPoint",
            "hits of banana in the fork"),
        new Caught(SessionStoreConformance.Search.class, "aStoreWideSearchSeesForksAsTheyShow",
            "hits of the parent's event past the fork point"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    ForkTracker[] forks = new ForkTracker[1];
    return ForwardingStore.of(correctStore(clock))
        .withSessions(sessions -> forks[0] = new ForkTracker(sessions))
        .withSearch(search -> new HitListSearch(search) {
          @Override
          protected List<SearchHit> hits(SearchQuery query, List<SearchHit> correct) {
            List<SearchHit> hits = new ArrayList<>(correct);
            Optional<ForkOrigin> scopedFork = query.sessionId() == null ? Optional.empty()
                : forks[0].origin(query.sessionId());
            if (scopedFork.isPresent()) {
              every(query.session(scopedFork.get().sessionId())).stream()
                  .filter(hit -> hit.event().seq() > scopedFork.get().seq())
                  .forEach(hit -> hits.add(as(query.sessionId(), hit)));
            } else if (query.sessionId() == null) {
              for (SearchHit hit : correct) {
                for (String fork : forks[0].forksOf(hit.event().sessionId())) {
                  if (hit.event().seq() > forks[0].origin(fork).orElseThrow().seq()) {
                    hits.add(as(fork, hit));
                  }
                }
              }
            }
            return hits;
          }
        });
  }

  private static SearchHit as(String sessionId, SearchHit hit) {
    Event event = hit.event();
    return new SearchHit(new Event(sessionId, event.seq(), event.id(), event.type(), event.runId(), event.agentId(),
        event.parentId(), event.payload(), event.timestamp()), hit.score(), hit.excerpt(), hit.highlights());
  }
}
