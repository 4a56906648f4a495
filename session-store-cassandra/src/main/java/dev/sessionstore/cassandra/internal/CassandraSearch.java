package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.Event;
import dev.sessionstore.Search;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.spi.SearchResults;
import dev.sessionstore.spi.SearchText;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Search on Cassandra through the storage-attached index over event rows' {@code search_terms}
 * ({@link SearchEntries}: each word and its short prefixes), never by reading a session's events one by one.
 *
 * <p><b>What a query reads.</b> One statement whose restrictions are {@code search_terms CONTAINS ?}, one per word of
 * {@link SearchText#indexWords}: the index intersects the entries with the fewest rows (Cassandra 5.0 intersects two
 * and filters the rows read by the others), so the replicas read at most the event rows holding the two rarest. Scoped to a session, the statement also names the partition: one partition is touched. Any other
 * scope (the whole store, a tenant, sessions' metadata) is one statement over the namespace ({@code ns = ?}, the
 * first part of the partition key, filtered on the rows the index selected): it reaches every node's index, reads
 * the rows of the keyspace holding every entry (those of other namespaces sharing the keyspace included, then
 * dropped), and keeps those whose partition's tenant and metadata (static columns, read with the row) fit. So the
 * rows read are those holding the query's rarest words (and words the prefix entries share), whatever the size of
 * the store; a scope narrower than the words narrows what is returned, not what is read.
 *
 * <p><b>What a session shows.</b> A fork is a partition holding copies of its parent's events up to its fork point,
 * written with their entries, so it finds them under its own id and never its parent's later events. A row outside
 * the partition's live log ({@code cut_seq} + 1 to {@code last_seq}, read with it) is skipped. Truncation, retention
 * cuts and deletion delete the rows, so the index never yields them again; a stored-value rewrite of a payload sets
 * its entries with it. {@link SearchResults} then decides matches, filters, order and the page, so every candidate
 * of the query is read on every page (no server-side order exists for a score).
 *
 * <p>Reads at the store's read consistency. Thread-safe: statements are prepared once per number of entries.
 */
final class CassandraSearch implements Search {

  /** The columns a search reads: the event's, the live log's bounds, then the session's scope. */
  private static final String COLUMNS = Cql.EVENT_COLUMNS + ", last_seq, session_id, s_tenant, s_metadata";
  private static final int LAST_SEQ = Cql.EVENT_WIDTH;
  private static final int CUT_SEQ = Cql.EVENT_WIDTH - 1;
  private static final int SESSION_ID = LAST_SEQ + 1;
  private static final int TENANT = LAST_SEQ + 2;
  private static final int METADATA = LAST_SEQ + 3;

  private final Cql cql;
  private final String ns;
  private final String data;
  private final Map<Integer, PreparedStatement> inSession = new ConcurrentHashMap<>();
  private final Map<Integer, PreparedStatement> inNamespace = new ConcurrentHashMap<>();

  CassandraSearch(Cql cql) {
    this.cql = cql;
    this.ns = cql.settings.namespace();
    this.data = cql.settings.keyspace() + ".session_data";
  }

  @Override
  public SearchPage find(SearchQuery query) {
    List<Object> values = new ArrayList<>();
    values.add(ns);
    boolean oneSession = query.sessionId() != null;
    if (oneSession) {
      values.add(query.sessionId());
    }
    Set<String> entries = new LinkedHashSet<>();
    SearchText.indexWords(query).forEach(word -> entries.add(SearchEntries.of(word)));
    values.addAll(entries);
    return Reads.run(() -> {
      PreparedStatement prepared = oneSession ? inSession.computeIfAbsent(entries.size(), this::sessionStatement)
          : inNamespace.computeIfAbsent(entries.size(), this::namespaceStatement);
      return SearchResults.page(query, candidates(query, prepared.bind(values.toArray())));
    });
  }

  /** The events {@code statement} selects that the sessions of {@code query}'s scope show. */
  private List<Event> candidates(SearchQuery query, BoundStatement statement) {
    List<Event> events = new ArrayList<>();
    for (Row row : cql.read(statement)) {
      long seq = row.getLong(0);
      long cutSeq = row.isNull(CUT_SEQ) ? 0 : row.getLong(CUT_SEQ);
      long lastSeq = row.isNull(LAST_SEQ) ? 0 : row.getLong(LAST_SEQ);
      if (seq <= cutSeq || seq > lastSeq || !inScope(query, row)) {
        continue;
      }
      events.add(Rows.event(row.getString(SESSION_ID), row));
    }
    return events;
  }

  private static boolean inScope(SearchQuery query, Row row) {
    if (query.tenant() != null && !query.tenant().equals(row.getString(TENANT))) {
      return false;
    }
    if (query.sessionMetadata().isEmpty()) {
      return true;
    }
    Map<String, String> metadata = row.getMap(METADATA, String.class, String.class);
    return metadata != null && query.sessionMetadata().entrySet().stream()
        .allMatch(pair -> Objects.equals(metadata.get(pair.getKey()), pair.getValue()));
  }

  private PreparedStatement sessionStatement(int entries) {
    return cql.settings.session().prepare("SELECT " + COLUMNS + " FROM " + data
        + " WHERE ns = ? AND session_id = ?" + contains(entries));
  }

  private PreparedStatement namespaceStatement(int entries) {
    return cql.settings.session().prepare("SELECT " + COLUMNS + " FROM " + data + " WHERE ns = ?" + contains(entries)
        + " ALLOW FILTERING");
  }

  private static String contains(int entries) {
    return " AND search_terms CONTAINS ?".repeat(entries);
  }
}
