package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValueKind;
import dev.sessionstore.spi.StoredValueRef;
import dev.sessionstore.spi.StoredValues;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What the JDBC adapter's search finds through its index on one database: words, prefixes and phrases, every scope,
 * forks up to their fork point, and the index kept exact by every write that adds, removes or replaces events (a
 * subclass per database gives a fresh store per test).
 */
abstract class SearchScenarios {

  /** A fresh, empty store of this database. */
  abstract SessionStore store();

  static NewEvent said(String text) {
    return NewEvent.of("message", Json.from(java.util.Map.of("role", "user", "text", text)));
  }

  static List<String> found(SessionStore store, SearchQuery query) {
    return store.search().find(query).hits().stream().map(SearchHit::event)
        .map(event -> event.sessionId() + "#" + event.seq()).toList();
  }

  @Test
  @DisplayName("Declares search; finds words whatever their case, prefixes and phrases, and only events holding them")
  void findsWordsPrefixesAndPhrases() {
    SessionStore store = store();
    assertThat(store.capabilities()).contains(Capability.SEARCH);
    store.events().appendAll("a", List.of(said("The INVOICE was not paid"), said("Invoices are sent monthly"),
        said("paid in full"), said("Ünïcode Straße façade 東京")));
    assertThat(found(store, SearchQuery.of("invoice"))).containsExactly("a#1");
    assertThat(found(store, SearchQuery.of("invoice*"))).containsExactlyInAnyOrder("a#1", "a#2");
    assertThat(found(store, SearchQuery.of("\"not paid\""))).containsExactly("a#1");
    assertThat(found(store, SearchQuery.of("paid"))).containsExactlyInAnyOrder("a#1", "a#3");
    assertThat(found(store, SearchQuery.of("straße FAÇADE"))).containsExactly("a#4");
    assertThat(found(store, SearchQuery.of("東京"))).containsExactly("a#4");
    assertThat(found(store, SearchQuery.of("user"))).hasSize(4);
    assertThat(found(store, SearchQuery.of("role"))).isEmpty();
    assertThat(found(store, SearchQuery.of("invoice refund"))).isEmpty();
    SearchHit hit = store.search().find(SearchQuery.of("invoice")).hits().get(0);
    assertThat(hit.excerpt()).isEqualTo("The INVOICE was not paid");
  }

  @Test
  @DisplayName("A single append, a batch and a step's events are found at once; filters narrow them")
  void readsItsWritesAndFilters() {
    SessionStore store = store();
    store.events().append("s", said("apple one"));
    store.events().appendAll("s", List.of(said("apple two").withRunId("r1"), NewEvent.of("tool",
        Json.from(java.util.Map.of("out", "apple three"))).withAgentId("agent-x")));
    assertThat(found(store, SearchQuery.of("apple"))).containsExactlyInAnyOrder("s#1", "s#2", "s#3");
    assertThat(found(store, SearchQuery.of("apple").types("tool"))).containsExactly("s#3");
    assertThat(found(store, SearchQuery.of("apple").runId("r1"))).containsExactly("s#2");
    assertThat(found(store, SearchQuery.of("apple").agentId("agent-x"))).containsExactly("s#3");
  }

  @Test
  @DisplayName("Scopes: one session, a tenant, sessions by metadata, the whole store; never another's events")
  void scopes() {
    SessionStore store = store();
    store.sessions().save(SessionWrite.of("t1-alice").withTenant("t1").withMetadata("user", "alice"));
    store.sessions().save(SessionWrite.of("t1-bob").withTenant("t1").withMetadata("user", "bob"));
    store.sessions().save(SessionWrite.of("t2-alice").withTenant("t2").withMetadata("user", "alice"));
    for (String session : List.of("t1-alice", "t1-bob", "t2-alice")) {
      store.events().append(session, said("refund requested"));
    }
    assertThat(found(store, SearchQuery.of("refund"))).hasSize(3);
    assertThat(found(store, SearchQuery.of("refund").session("t1-bob"))).containsExactly("t1-bob#1");
    assertThat(found(store, SearchQuery.of("refund").tenant("t1")))
        .containsExactlyInAnyOrder("t1-alice#1", "t1-bob#1");
    assertThat(found(store, SearchQuery.of("refund").sessionMetadata("user", "alice")))
        .containsExactlyInAnyOrder("t1-alice#1", "t2-alice#1");
    assertThat(found(store, SearchQuery.of("refund").tenant("t2").sessionMetadata("user", "alice")))
        .containsExactly("t2-alice#1");
    assertThat(found(store, SearchQuery.of("refund").session("unknown"))).isEmpty();
  }

  @Test
  @DisplayName("A fork finds its parent's events up to its fork point as its own, and none after; a fork of a fork too")
  void forks() {
    SessionStore store = store();
    store.events().appendAll("parent", List.of(said("alpha"), said("beta"), said("gamma")));
    store.sessions().fork("parent", 2, "fork");
    store.events().append("fork", said("beta again"));
    store.sessions().fork("fork", 3, "grandchild");
    assertThat(found(store, SearchQuery.of("beta").session("fork"))).containsExactlyInAnyOrder("fork#2", "fork#3");
    assertThat(found(store, SearchQuery.of("gamma").session("fork"))).isEmpty();
    assertThat(found(store, SearchQuery.of("alpha").session("grandchild"))).containsExactly("grandchild#1");
    assertThat(found(store, SearchQuery.of("alpha")))
        .containsExactlyInAnyOrder("parent#1", "fork#1", "grandchild#1");
    // The parent's log cut below the fork point: the fork keeps what it shares.
    store.events().truncate("parent", 1);
    assertThat(found(store, SearchQuery.of("alpha"))).containsExactlyInAnyOrder("fork#1", "grandchild#1");
    assertThat(found(store, SearchQuery.of("beta").session("grandchild")))
        .containsExactlyInAnyOrder("grandchild#2", "grandchild#3");
  }

  @Test
  @DisplayName("Truncation, deletion and a tenant's deletion remove events from results in the same call")
  void removals() {
    SessionStore store = store();
    store.sessions().save(SessionWrite.of("gone-tenant").withTenant("t9"));
    store.events().appendAll("cut", List.of(said("keep this"), said("drop this")));
    store.events().append("deleted", said("drop this"));
    store.events().append("gone-tenant", said("drop this"));
    assertThat(found(store, SearchQuery.of("drop"))).hasSize(3);
    store.events().truncate("cut", 2);
    store.sessions().delete("deleted");
    store.sessions().deleteByTenant("t9");
    assertThat(found(store, SearchQuery.of("drop"))).isEmpty();
    assertThat(found(store, SearchQuery.of("keep"))).containsExactly("cut#1");
    store.events().append("deleted", said("back again"));
    assertThat(found(store, SearchQuery.of("drop"))).isEmpty();
    assertThat(found(store, SearchQuery.of("back"))).containsExactly("deleted#1");
  }

  @Test
  @DisplayName("A payload rewritten in place (as re-encryption does) is found by its new words, not its old ones")
  void rewrite() {
    SessionStore store = store();
    Json before = store.events().append("s", said("old secret")).payload();
    StoredValues values = store.unwrap(StoredValues.class).orElseThrow();
    StoredValueRef ref = new StoredValueRef(StoredValueKind.EVENT_PAYLOAD, "s", "1");
    assertThat(values.rewrite(StoredValue.of(ref, before), StoredValue.of(ref, Json.of("{\"text\":\"new words\"}"))))
        .isTrue();
    assertThat(found(store, SearchQuery.of("secret"))).isEmpty();
    assertThat(found(store, SearchQuery.of("new words"))).containsExactly("s#1");
  }

  @Test
  @DisplayName("An imported session is found as the exported one was")
  void importKeepsTheIndex() {
    SessionStore store = store();
    store.events().appendAll("s", List.of(said("exported words"), said("more")));
    SessionArchive archive = store.archives().export("s").orElseThrow();
    store.sessions().delete("s");
    assertThat(found(store, SearchQuery.of("exported"))).isEmpty();
    store.archives().importSession(archive);
    assertThat(found(store, SearchQuery.of("exported"))).containsExactly("s#1");
  }
}
