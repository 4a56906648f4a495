package dev.sessionstore.spi;

import dev.sessionstore.Search;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;

/**
 * The search of a {@link ValidatingSessionStore}: the closed check, the query's presence, then a tenant scope's
 * capability ({@link dev.sessionstore.Capability#TENANTS}), then the adapter's. The query's members were checked when
 * it was built.
 */
final class ValidatingSearch implements Search {

  private final OpenGate gate;
  private final DeclaredCapabilities declared;
  private final Search adapter;

  ValidatingSearch(OpenGate gate, DeclaredCapabilities declared, Search adapter) {
    this.gate = gate;
    this.declared = declared;
    this.adapter = adapter;
  }

  @Override
  public SearchPage find(SearchQuery query) {
    gate.checkOpen();
    Arguments.requireNonNull("query", query);
    declared.requireFor(query);
    return adapter.find(query);
  }
}
