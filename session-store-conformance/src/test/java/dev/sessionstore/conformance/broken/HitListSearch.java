package dev.sessionstore.conformance.broken;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.Search;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A search that reads every hit a correct search finds for a query (its terms, scope and filters), lets a broken
 * store change that list, and pages it itself: a cursor is the offset of the page's first hit. By default the pages
 * are the correct store's; a broken store overrides {@link #hits} or {@link #nextOffset}.
 */
class HitListSearch implements Search {

  private static final String PREFIX = "offset-";

  protected final Search delegate;

  HitListSearch(Search delegate) {
    this.delegate = delegate;
  }

  @Override
  public SearchPage find(SearchQuery query) {
    int offset = offset(query);
    List<SearchHit> all = hits(query, every(query));
    int from = Math.min(offset, all.size());
    int to = Math.min(offset + query.limit(), all.size());
    Optional<String> next = to < all.size()
        ? Optional.of(PREFIX + nextOffset(offset, query.limit())) : Optional.empty();
    return new SearchPage(all.subList(from, to), next);
  }

  /** The hits the broken store answers {@code query} with, best first, from the correct ones. */
  protected List<SearchHit> hits(SearchQuery query, List<SearchHit> correct) {
    return correct;
  }

  /** Where the page after the one at {@code offset} starts. */
  protected int nextOffset(int offset, int limit) {
    return offset + limit;
  }

  /** Every hit the correct search finds for {@code query}'s terms, scope and filters, best first. */
  protected final List<SearchHit> every(SearchQuery query) {
    SearchQuery next = new SearchQuery(query.terms(), query.sessionId(), query.tenant(), query.sessionMetadata(),
        query.types(), query.runId(), query.agentId(), query.since(), query.until(), Limits.MAX_SEARCH_LIMIT, null);
    List<SearchHit> all = new ArrayList<>();
    while (true) {
      SearchPage page = delegate.find(next);
      all.addAll(page.hits());
      if (page.nextCursor().isEmpty()) {
        return all;
      }
      next = next.after(page.nextCursor().get());
    }
  }

  private static int offset(SearchQuery query) {
    if (query.cursor() == null) {
      return 0;
    }
    if (!query.cursor().startsWith(PREFIX)) {
      throw new InvalidArgumentException("cursor", "is not a cursor a search handed out");
    }
    return Integer.parseInt(query.cursor().substring(PREFIX.length()));
  }
}
