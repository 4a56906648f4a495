package dev.sessionstore.conformance.broken;

import dev.sessionstore.FencedWriterException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.WriterClaim;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.ToLongFunction;

/**
 * Writer fencing kept beside a correct store, in a table of this wrapper, for broken stores to vary: how the next
 * token is made, and whether the token is checked under the lock the claim takes, together with the write, or before
 * it. Fenced steps reach the correct store without their token ({@link #withoutFence}).
 */
final class SideFencing {

  private final ConcurrentHashMap<String, WriterClaim> claims = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Object> locks = new ConcurrentHashMap<>();
  private final ToLongFunction<WriterClaim> nextToken;
  private final boolean checkedWithTheWrite;

  /**
   * @param nextToken           the token of a new claim, from the current claim ({@code null} when none)
   * @param checkedWithTheWrite whether a step's token is checked and its write made under the session's claim lock
   *                            (correct), or checked first and written a moment later (broken)
   */
  SideFencing(ToLongFunction<WriterClaim> nextToken, boolean checkedWithTheWrite) {
    this.nextToken = nextToken;
    this.checkedWithTheWrite = checkedWithTheWrite;
  }

  /** {@code step} with the same members and no fencing token. */
  static Step withoutFence(Step step) {
    return new Step(step.sessionId(), step.session(), step.run(), step.truncateFrom(), step.events(),
        step.toolCalls(), step.resolutions(), step.deadlines(), step.summary(), step.checkpoints(),
        step.expectedLastSeq(), step.modelCall(), OptionalLong.empty());
  }

  /** {@code delegate} with its claims and fenced steps handled by this table. */
  ForwardingStore over(SessionStore delegate) {
    return ForwardingStore.of(delegate)
        .withSessions(sessions -> new ForwardingSessions(sessions) {
          @Override
          public WriterClaim claim(String sessionId, String ownerId) {
            synchronized (lock(sessionId)) {
              WriterClaim claim = new WriterClaim(sessionId, ownerId, nextToken.applyAsLong(claims.get(sessionId)));
              claims.put(sessionId, claim);
              return claim;
            }
          }

          @Override
          public Optional<WriterClaim> currentClaim(String sessionId) {
            return Optional.ofNullable(claims.get(sessionId));
          }
        })
        .withCommit(step -> commit(delegate, step));
  }

  private StepOutcome commit(SessionStore delegate, Step step) {
    if (step.fence().isEmpty()) {
      return delegate.commit(step);
    }
    if (checkedWithTheWrite) {
      synchronized (lock(step.sessionId())) {
        check(step);
        return delegate.commit(withoutFence(step));
      }
    }
    check(step);
    try {
      Thread.sleep(ThreadLocalRandom.current().nextInt(3)); // the gap between check and write a real race hits
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return delegate.commit(withoutFence(step));
  }

  private void check(Step step) {
    WriterClaim current = claims.get(step.sessionId());
    long token = step.fence().getAsLong();
    if (current == null || current.token() != token) {
      throw new FencedWriterException(step.sessionId(), token, current == null ? 0 : current.token(),
          current == null ? null : current.ownerId());
    }
  }

  private Object lock(String sessionId) {
    return locks.computeIfAbsent(sessionId, id -> new Object());
  }
}
