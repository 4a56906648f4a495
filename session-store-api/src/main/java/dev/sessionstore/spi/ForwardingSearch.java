package dev.sessionstore.spi;

import dev.sessionstore.Search;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;

/**
 * {@link Search} that forwards to a delegate through an {@link Interception}; a decorator overrides what it changes
 * and calls {@code super} to forward. Thread-safe when the delegate and the interception are.
 */
public class ForwardingSearch implements Search {

  private final Search delegate;
  private final Interception interception;

  /** Forwards to {@code delegate}, every call through {@code interception}. */
  public ForwardingSearch(Search delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  @Override
  public SearchPage find(SearchQuery query) {
    return interception.around("search.find", query == null ? null : query.sessionId(), () -> delegate.find(query));
  }
}
