package dev.sessionstore.spring.boot;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Duration;
import java.util.Optional;

/**
 * The in-memory store of {@code session-store.type=memory}: the only class of the starter that names
 * session-store-memory, an optional dependency, loaded only once the auto-configuration found it on the class path.
 */
final class MemoryStores {

  private MemoryStores() {
  }

  /** An in-memory store applying {@code retention} every {@code interval}, when a rule is set. */
  static SessionStore build(Optional<RetentionPolicy> retention, Duration interval) {
    InMemorySessionStore.Builder builder = InMemorySessionStore.builder();
    retention.ifPresent(policy -> builder.retention(policy, interval));
    return builder.build();
  }
}
