package dev.sessionstore.springai.session;

import dev.sessionstore.memory.InMemorySessionStore;
import org.springframework.ai.session.SessionRepository;

/** {@link SessionStoreSessionRepository} on the in-memory adapter. */
class InMemoryStoreSessionRepositoryTest extends SessionRepositoryContract {

  @Override
  protected SessionRepository newRepository() {
    return SessionStoreSessionRepository.of(InMemorySessionStore.builder().build());
  }
}
