package dev.sessionstore.jdbc;

import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A store whose selective searches find the same hits while it grows: six events hold the word {@code needle}
 * (in sessions of two tenants, one with {@code user=alice}, and one shared by a fork), and every other event holds
 * filler words of a vocabulary of {@value #VOCABULARY}, through the store's own appends.
 */
final class SearchGrowthWorkload {

  static final int VOCABULARY = 5_000;
  private static final int SESSION_LENGTH = 100;

  private final SessionStore store;
  private int events;
  private int sessions;

  private SearchGrowthWorkload(SessionStore store) {
    this.store = store;
  }

  /** The needles, in a store that then holds about {@code size} events. */
  static SearchGrowthWorkload prepare(SessionStore store, int size) {
    SearchGrowthWorkload workload = new SearchGrowthWorkload(store);
    store.sessions().save(SessionWrite.of("alice").withTenant("t1").withMetadata("user", "alice"));
    store.sessions().save(SessionWrite.of("bob").withTenant("t2"));
    store.events().appendAll("alice", List.of(said("needle one"), said("filler"), said("needle two")));
    store.events().appendAll("bob", List.of(said("needle three"), said("needles four")));
    store.sessions().fork("alice", 2, "alice-fork");
    workload.events = 5;
    workload.grow(size);
    return workload;
  }

  /** Appends filler events, in batches of one session's length, until the store holds about {@code size}. */
  void grow(int size) {
    while (events < size) {
      String session = "filler-" + sessions++;
      List<NewEvent> batch = new ArrayList<>(SESSION_LENGTH);
      for (int i = 0; i < SESSION_LENGTH; i++) {
        int word = (events + i) * 7919 % VOCABULARY;
        batch.add(said("filler word" + word + " and word" + (word + 1) % VOCABULARY));
      }
      store.events().appendAll(session, batch);
      events += SESSION_LENGTH;
    }
  }

  /** The selective searches: each finds the same hits at any size (the needles, never a filler). */
  static List<SearchQuery> queries() {
    return List.of(SearchQuery.of("needle"), SearchQuery.of("needle*"), SearchQuery.of("needle").session("alice"),
        SearchQuery.of("needle").session("alice-fork"), SearchQuery.of("needle").tenant("t2"),
        SearchQuery.of("needle").sessionMetadata("user", "alice"), SearchQuery.of("\"needle two\""));
  }

  /** Runs {@code query}; returns its hits as session id and seq. */
  List<String> search(SearchQuery query) {
    return SearchScenarios.found(store, query);
  }

  static NewEvent said(String text) {
    return NewEvent.of("message", Json.from(Map.of("text", text)));
  }
}
