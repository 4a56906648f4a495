package dev.sessionstore.springai.session;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.springframework.ai.session.InMemorySessionRepository;
import org.springframework.ai.session.SessionRepository;

/**
 * spring-ai-session's own {@link InMemorySessionRepository} (0.6.0) against the contract: the reference behaviour.
 * Its deviations are the tests disabled below, each naming why.
 */
class InMemorySessionRepositoryContractTest extends SessionRepositoryContract {

  @Override
  protected SessionRepository newRepository() {
    return InMemorySessionRepository.builder().build();
  }

  @Override
  @Test
  @Disabled("InMemorySessionRepository 0.6.0 appends every call: the same event again is a second event and moves "
      + "the version (no idempotency by event id)")
  void replayWritesNothing() {
  }

  @Override
  @Test
  @Disabled("InMemorySessionRepository 0.6.0 stores other content under a stored id as a second event, no error")
  void otherContentUnderStoredIdFails() {
  }

  @Override
  @Test
  @Disabled("InMemorySessionRepository 0.6.0 removes an active event a compaction neither archives nor retains (a "
      + "superseded summary): that history is gone")
  void compactionNeverDeletesHistory() {
  }
}
