package dev.sessionstore.memory.internal;

import dev.sessionstore.Event;
import dev.sessionstore.Search;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.Session;
import dev.sessionstore.spi.SearchResults;
import dev.sessionstore.spi.SearchText;
import java.util.ArrayList;
import java.util.List;

/**
 * Search over the in-memory store: each event storage keeps an inverted index of its events' words
 * ({@link EventStorage#search}), so a session's candidates are read from the postings of the query's words, never by
 * reading its log; a query scoped to a tenant or to sessions' metadata, or store-wide, visits each session in scope
 * (their records are read without locks) and then each one's index under its lock. {@link SearchResults} matches,
 * ranks and pages what the indexes return. A fork's log searches the storages it shares up to its fork point.
 * Thread-safe.
 */
final class MemorySearch implements Search {

  private final SessionRegistry registry;

  MemorySearch(SessionRegistry registry) {
    this.registry = registry;
  }

  @Override
  public SearchPage find(SearchQuery query) {
    List<SearchTerm> words = SearchText.indexWords(query);
    List<Event> candidates = new ArrayList<>();
    if (query.sessionId() != null) {
      collect(query.sessionId(), query, words, candidates);
    } else {
      for (SessionState state : registry.all()) {
        Session session = state.session();
        if (session != null && inScope(session, query)) {
          collect(session.id(), query, words, candidates);
        }
      }
    }
    return SearchResults.page(query, candidates);
  }

  private void collect(String sessionId, SearchQuery query, List<SearchTerm> words, List<Event> candidates) {
    registry.withExisting(sessionId, state -> {
      if (inScope(state.session(), query)) {
        state.log.search(words, candidates);
      }
      return null;
    }, () -> null);
  }

  private static boolean inScope(Session session, SearchQuery query) {
    return (query.tenant() == null || query.tenant().equals(session.tenant()))
        && session.metadata().entrySet().containsAll(query.sessionMetadata().entrySet());
  }
}
