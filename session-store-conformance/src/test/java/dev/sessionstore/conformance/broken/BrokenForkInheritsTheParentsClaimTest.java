package dev.sessionstore.conformance.broken;

import dev.sessionstore.ForkOrigin;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.WriterClaim;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose fork takes its parent's claim, as when the claim row is copied with the session: until the fork is
 * claimed itself, it reports its parent's claim and the parent owner's token writes to it.
 */
class BrokenForkInheritsTheParentsClaimTest extends BrokenStoreTest {

  BrokenForkInheritsTheParentsClaimTest() {
    super(SessionStoreConformance.WriterFencing.class, "aForkStartsUnclaimed", "current claim of a new fork");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    Sessions inheriting = new ForwardingSessions(correct.sessions()) {
      @Override
      public Optional<WriterClaim> currentClaim(String sessionId) {
        return delegate.currentClaim(sessionId).or(() -> delegate.find(sessionId)
            .flatMap(session -> session.forkOrigin()).map(ForkOrigin::sessionId)
            .flatMap(this::currentClaim)
            .map(parents -> new WriterClaim(sessionId, parents.ownerId(), parents.token())));
      }
    };
    return ForwardingStore.of(correct).withSessions(sessions -> inheriting)
        .withCommit(step -> commit(correct, inheriting, step));
  }

  /** Commits {@code step}, taking a fork's inherited claim for its own. */
  private static StepOutcome commit(SessionStore correct, Sessions inheriting, Step step) {
    boolean inherited = step.fence().isPresent()
        && correct.sessions().currentClaim(step.sessionId()).isEmpty()
        && inheriting.currentClaim(step.sessionId())
            .filter(claim -> claim.token() == step.fence().getAsLong()).isPresent();
    return correct.commit(inherited ? SideFencing.withoutFence(step) : step);
  }
}
