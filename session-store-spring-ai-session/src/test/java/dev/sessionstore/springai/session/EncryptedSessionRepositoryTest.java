package dev.sessionstore.springai.session;

import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import dev.sessionstore.memory.InMemorySessionStore;
import org.springframework.ai.session.SessionRepository;

/**
 * {@link SessionStoreSessionRepository} on an encrypting store (the in-memory adapter behind
 * {@link EncryptingSessionStore}): the events' messages are encrypted at rest, and every field of the contract but the
 * keyword works the same; the store does not declare search, so the keyword is refused (as
 * {@link WithoutSearchSessionRepositoryTest} checks in detail).
 */
class EncryptedSessionRepositoryTest extends SessionRepositoryContract {

  private static final KeyProvider KEYS = KeyProvider.of("spring-ai-session-test-key", new byte[] {
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
      31, 32});

  @Override
  protected SessionRepository newRepository() {
    return SessionStoreSessionRepository.of(
        EncryptingSessionStore.builder(InMemorySessionStore.builder().build()).keys(KEYS).build());
  }

  @Override
  protected boolean searchesKeywords() {
    return false;
  }
}
