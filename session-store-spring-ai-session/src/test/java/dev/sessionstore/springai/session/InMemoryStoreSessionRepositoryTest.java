package dev.sessionstore.springai.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.ai.session.Session;
import org.springframework.ai.session.SessionRepository;

/** {@link SessionStoreSessionRepository} on the in-memory adapter. */
class InMemoryStoreSessionRepositoryTest extends SessionRepositoryContract {

  @Override
  protected SessionRepository newRepository() {
    return SessionStoreSessionRepository.of(InMemorySessionStore.builder().build());
  }

  @Test
  @DisplayName("expired sessions of the store that are not this repository's are not listed; the expiry is the store's,"
      + " compared to the nanosecond")
  void expiredSessionsAreOnlyThisRepositorys() {
    SessionStore store = InMemorySessionStore.builder().build();
    SessionStoreSessionRepository sessions = SessionStoreSessionRepository.of(store);
    store.sessions().save(SessionWrite.of("other").withExpiresAt(T0));
    sessions.save(Session.builder().id("mine").userId("u").createdAt(T0).expiresAt(T0).build());

    assertThat(sessions.findExpiredSessionIds(Instant.MAX)).containsExactly("mine");
    assertThat(sessions.findExpiredSessionIds(T0)).as("at the expiry").isEmpty();
    assertThat(sessions.findExpiredSessionIds(T0.plusNanos(1))).as("a nanosecond after the expiry")
        .containsExactly("mine");
    assertThat(store.sessions().find("mine").orElseThrow().expiry()).contains(T0);
  }
}
