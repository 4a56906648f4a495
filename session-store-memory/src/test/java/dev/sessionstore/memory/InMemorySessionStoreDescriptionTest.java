package dev.sessionstore.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SessionStore;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An in-memory store names itself and its target, and two stores are told apart; it has no schema, so no schema
 * version.
 */
class InMemorySessionStoreDescriptionTest {

  @Test
  @DisplayName("toString names the adapter and its target, one per instance")
  void namesAdapterAndTarget() {
    try (SessionStore first = InMemorySessionStore.builder().build();
         SessionStore second = InMemorySessionStore.builder().build()) {
      assertThat(first.toString()).startsWith("InMemorySessionStore[heap of this process, instance ");
      assertThat(first.toString()).isNotEqualTo(second.toString());
    }
  }

  @Test
  @DisplayName("an in-memory store has no schema version")
  void hasNoSchemaVersion() {
    try (SessionStore store = InMemorySessionStore.builder().build()) {
      assertThat(store.schemaVersion()).isEmpty();
    }
  }
}
