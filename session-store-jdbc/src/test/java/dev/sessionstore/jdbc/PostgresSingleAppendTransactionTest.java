package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An append of one event is one transaction on PostgreSQL, without a subtransaction (schema version 8): counted by
 * the transaction id each event row carries ({@link TransactionIds}), not timed.
 */
class PostgresSingleAppendTransactionTest {

  private final TestSchema schema = new TestSchema();
  private SessionStore store;
  private TransactionIds transactions;

  @BeforeEach
  void openStore() {
    store = schema.store(builder -> builder);
    transactions = TransactionIds.noteOn(schema);
  }

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("Appending one event to an unknown session, to a known one and at an expected seq writes no row in a"
      + " subtransaction")
  void singleAppendsTakeNoSubtransaction() {
    store.events().append("s", event("a"));
    store.events().append("s", event("b"));
    store.events().append("s", event("c"), 2);

    assertThat(store.events().lastSeq("s")).isEqualTo(3);
    assertThat(transactions.noted()).isEqualTo(3);
    assertThat(transactions.writtenInSubtransactions()).isZero();
  }

  @Test
  @DisplayName("A replayed single event returns the stored one and leaves the last seq, without another row")
  void replayOfOneEventUndoesTheMove() {
    Event first = store.events().append("s", event("a"));
    store.events().append("s", event("b"));

    Event replayed = store.events().append("s", event("a"));

    assertThat(replayed).isEqualTo(first);
    assertThat(store.events().lastSeq("s")).isEqualTo(2);
    assertThat(store.events().appendAll("s", List.of(event("c")))).extracting(Event::seq).containsExactly(3L);
    assertThat(transactions.noted()).isEqualTo(3);
    assertThat(transactions.writtenInSubtransactions()).isZero();
  }

  private static NewEvent event(String id) {
    return NewEvent.of("note", Json.of("{\"text\":\"event " + id + "\"}")).withId(id);
  }
}
