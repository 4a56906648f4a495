package dev.sessionstore.conformance.broken;

import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;

/**
 * A store whose search drops a query's tenant, as an index query that forgets to join the session's tenant does: a
 * tenant's search finds every tenant's events.
 */
class BrokenSearchLeaksOtherTenantsTest extends BrokenStoreTest {

  BrokenSearchLeaksOtherTenantsTest() {
    super(new Caught(SessionStoreConformance.Search.class, "aTenantScopeNeverReturnsAnotherTenantsEvents",
            "hits of tenant acme"),
        new Caught(SessionStoreConformance.Search.class, "aSessionMovedToAnotherTenantIsSearchedThere",
            "hits of acme after its session moved to globex"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withSearch(search -> new HitListSearch(search) {
      @Override
      protected List<SearchHit> hits(SearchQuery query, List<SearchHit> correct) {
        return every(new SearchQuery(query.terms(), query.sessionId(), null, query.sessionMetadata(), query.types(),
            query.runId(), query.agentId(), query.since(), query.until(), query.limit(), null));
      }
    });
  }
}
