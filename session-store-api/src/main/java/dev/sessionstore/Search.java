package dev.sessionstore;

/**
 * Finds events by the words they hold: in one session, in a tenant's or a user's sessions, or store-wide
 * ({@link SearchQuery} says what is searched and how text is read into words; {@link SearchPage} the order).
 *
 * <p><b>Guarantees</b> (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#21">21</a>), the same on every adapter. Every store reads the events a query selects through an index of
 * their words kept in the same transaction (or partition write) as the events, never by reading the store's events
 * one by one: a search reads about as much as the events that hold all of its words, whatever the size of the store.
 * What an append returned is found by the next search from any thread (read-after-write); an event removed by
 * truncation, retention or the deletion of its session is never found after the call that removed it returned; a
 * query scoped to a tenant, a session or sessions' metadata never returns an event of another; a fork finds its
 * parent's events up to its fork point and none after it. An imported session is searchable as the exported one was.
 *
 * <p>Thread-safe. Reads only: a search never changes what is stored.
 */
public interface Search {

  /**
   * The page of hits {@code query} selects, best first; empty when nothing matches (also for an unknown session).
   *
   * @throws InvalidArgumentException       if {@code query} is null, or its cursor is not one this store handed out
   *                                        for a query with the same terms, scope and filters
   * @throws UnsupportedCapabilityException if the query names a tenant and the store lacks {@link Capability#TENANTS}
   */
  SearchPage find(SearchQuery query);
}
