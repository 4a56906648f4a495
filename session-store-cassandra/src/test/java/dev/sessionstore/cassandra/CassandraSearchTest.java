package dev.sessionstore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValueKind;
import dev.sessionstore.spi.StoredValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What the Cassandra search does through its storage-attached index, on the shared single node: words, short and
 * long prefixes, phrases and words longer than an index term; each scope (a session, a tenant, sessions' metadata,
 * the namespace, and never another namespace of the keyspace); a fork's copies; and the index following truncation,
 * deletion, a stored-value rewrite and an import.
 */
class CassandraSearchTest {

  private static final String KEYSPACE = "session_store_tests";

  private final List<SessionStore> stores = new ArrayList<>();
  private final SessionStore store = open(UUID.randomUUID().toString());

  private SessionStore open(String namespace) {
    SessionStore opened = CassandraSessionStore.builder().session(SharedCluster.session()).keyspace(KEYSPACE)
        .namespace(namespace).replicationFactor(SharedCluster.replicationFactor()).build();
    stores.add(opened);
    return opened;
  }

  @AfterEach
  void close() {
    stores.forEach(SessionStore::close);
  }

  private void say(String sessionId, String text) {
    store.events().append(sessionId, NewEvent.of("message", Json.of("{\"text\":" + "\"" + text + "\"" + "}")));
  }

  private static List<String> found(SessionStore in, SearchQuery query) {
    return in.search().find(query.limit(100)).hits().stream().map(SearchHit::event)
        .map(event -> event.sessionId() + "#" + event.seq()).sorted().toList();
  }

  private List<String> found(SearchQuery query) {
    return found(store, query);
  }

  @Test
  @DisplayName("The store declares search and finds words, prefixes short and long, phrases and the longest words")
  void wordsAndPrefixes() {
    assertThat(store.capabilities()).contains(Capability.SEARCH);
    String longWord = "x".repeat(300);
    say("s", "The invoice was not paid");
    say("s", "Invoicing is done by the internationalization team");
    say("s", "internal notes " + longWord);
    assertThat(found(SearchQuery.of("invoice"))).containsExactly("s#1");
    assertThat(found(SearchQuery.of("invoic*"))).containsExactly("s#1", "s#2");
    assertThat(found(SearchQuery.of("internationaliz*"))).containsExactly("s#2");
    assertThat(found(SearchQuery.of("internal"))).containsExactly("s#3");
    assertThat(found(SearchQuery.of("\"not paid\""))).containsExactly("s#1");
    assertThat(found(SearchQuery.of("\"paid not\""))).isEmpty();
    assertThat(found(SearchQuery.of(longWord))).as("a word is read to its first 64 chars").containsExactly("s#3");
    assertThat(found(SearchQuery.of("x".repeat(63)))).isEmpty();
    assertThat(found(SearchQuery.of("x".repeat(63) + "*"))).containsExactly("s#3");
    assertThat(found(SearchQuery.of("invoice team"))).isEmpty();
    assertThat(found(SearchQuery.of("by the team done")))
        .as("more entries than the index intersects: the others filter what it read").containsExactly("s#2");
    assertThat(found(SearchQuery.of("by the team paid"))).isEmpty();
  }

  @Test
  @DisplayName("A query finds only its session's, tenant's or sessions' events, and never another namespace's")
  void scopes() {
    store.sessions().save(SessionWrite.of("a").withTenant("acme").withMetadata("user", "alice"));
    store.sessions().save(SessionWrite.of("b").withTenant("acme").withMetadata("user", "bob"));
    store.sessions().save(SessionWrite.of("c").withTenant("other").withMetadata("user", "alice"));
    for (String id : List.of("a", "b", "c")) {
      say(id, "refund requested");
    }
    SessionStore neighbour = open(UUID.randomUUID().toString());
    neighbour.events().append("a", NewEvent.of("message", Json.of("{\"text\":\"refund requested\"}")));
    assertThat(found(SearchQuery.of("refund"))).containsExactly("a#1", "b#1", "c#1");
    assertThat(found(SearchQuery.of("refund").session("b"))).containsExactly("b#1");
    assertThat(found(SearchQuery.of("refund").tenant("acme"))).containsExactly("a#1", "b#1");
    assertThat(found(SearchQuery.of("refund").sessionMetadata("user", "alice"))).containsExactly("a#1", "c#1");
    assertThat(found(SearchQuery.of("refund").tenant("acme").sessionMetadata("user", "alice")))
        .containsExactly("a#1");
    assertThat(found(neighbour, SearchQuery.of("refund"))).containsExactly("a#1");
    assertThat(found(SearchQuery.of("refund").session("nobody"))).isEmpty();
  }

  @Test
  @DisplayName("A fork finds its parent's events up to the fork point under its own id, and none after it")
  void forks() {
    say("parent", "alpha one");
    say("parent", "alpha two");
    store.sessions().fork("parent", 1, "fork");
    say("parent", "alpha three");
    say("fork", "alpha four");
    assertThat(found(SearchQuery.of("alpha").session("fork"))).containsExactly("fork#1", "fork#2");
    assertThat(found(SearchQuery.of("alpha"))).containsExactly("fork#1", "fork#2", "parent#1", "parent#2",
        "parent#3");
  }

  @Test
  @DisplayName("Truncated and deleted events are gone from results when the call returns")
  void removals() {
    say("t", "gamma kept");
    say("t", "gamma cut");
    say("d", "gamma deleted");
    store.events().truncate("t", 2);
    store.sessions().delete("d");
    assertThat(found(SearchQuery.of("gamma"))).containsExactly("t#1");
    say("t", "gamma again");
    assertThat(found(SearchQuery.of("gamma"))).containsExactly("t#1", "t#2");
  }

  @Test
  @DisplayName("A rewritten payload is found by its new words, not its old ones")
  void rewrite() {
    say("r", "delta before");
    StoredValues values = store.unwrap(StoredValues.class).orElseThrow();
    StoredValue old = values.scan(Optional.empty(), 100).values().stream()
        .filter(value -> value.ref().kind() == StoredValueKind.EVENT_PAYLOAD).findFirst().orElseThrow();
    assertThat(values.rewrite(old, StoredValue.of(old.ref(), Json.of("{\"text\":\"delta after\"}")))).isTrue();
    assertThat(found(SearchQuery.of("after"))).containsExactly("r#1");
    assertThat(found(SearchQuery.of("before"))).isEmpty();
  }

  @Test
  @DisplayName("An imported session is searchable as the exported one was")
  void importIndexes() {
    say("x", "epsilon exported");
    SessionStore other = open(UUID.randomUUID().toString());
    assertThat(other.archives().importSession(store.archives().export("x").orElseThrow()))
        .isEqualTo(ImportOutcome.IMPORTED);
    assertThat(found(other, SearchQuery.of("epsilon"))).containsExactly("x#1");
  }
}
