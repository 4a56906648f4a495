package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose step stores the name its session write gives without claiming it in the store-wide name index, so
 * the session is not found by that name.
 */
class BrokenStepLeavesItsNameUnclaimedTest extends BrokenStoreTest {

  BrokenStepLeavesItsNameUnclaimedTest() {
    super(SessionStoreConformance.Steps.class, "aStepClaimsItsSessionsName", "findByName of the name a step gave");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    Set<String> unclaimed = ConcurrentHashMap.newKeySet();
    return ForwardingStore.of(correct)
        .withCommit(step -> {
          step.session().map(SessionWrite::name).ifPresent(unclaimed::add);
          return correct.commit(step);
        })
        .withSessions(sessions -> new ForwardingSessions(sessions) {
          @Override
          public Optional<Session> findByName(String name) {
            return unclaimed.contains(name) ? Optional.empty() : delegate.findByName(name);
          }
        });
  }
}
