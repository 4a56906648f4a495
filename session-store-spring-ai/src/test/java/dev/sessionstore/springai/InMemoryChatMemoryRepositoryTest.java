package dev.sessionstore.springai;

import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;

/** {@link SessionStoreChatMemoryRepository} on the in-memory store. */
class InMemoryChatMemoryRepositoryTest extends ChatMemoryRepositoryContract {

  @Override
  SessionStore openStore() {
    return InMemorySessionStore.builder().build();
  }

  @Override
  int concurrentRounds() {
    return 20;
  }
}
