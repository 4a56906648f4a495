package dev.sessionstore.langchain4j;

import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;

/**
 * {@link SessionStoreChatMemoryStore} on the in-memory store. A memory store has no second instance over the same
 * data: "reopening" hands out the same store, read through a new {@link SessionStoreChatMemoryStore}.
 */
class InMemoryChatMemoryStoreTest extends ChatMemoryStoreContract {

  private SessionStore store;

  @Override
  SessionStore openStore() {
    store = InMemorySessionStore.builder().build();
    return store;
  }

  @Override
  SessionStore reopenStore() {
    return store;
  }

  @Override
  void closeReopened(SessionStore reopened) {
  }

  @Override
  int concurrentRounds() {
    return 20;
  }
}
