package dev.sessionstore.conformance.broken;

import dev.sessionstore.Run;
import dev.sessionstore.Runs;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The symptom of a store that lost where a session's events first name its runs: a fork of such a session takes
 * none of them. A broken store {@linkplain #forget forgets} a session's run positions when its bug strikes; forks
 * made of that session afterwards list no runs.
 */
final class RunlessForks {

  private final Set<String> forgotten = ConcurrentHashMap.newKeySet();
  private final Set<String> runless = ConcurrentHashMap.newKeySet();

  /** From now on, forks of {@code sessionId} take no run. */
  void forget(String sessionId) {
    forgotten.add(sessionId);
  }

  /** {@code correct} with forks of forgotten sessions taking no run; the caller adds what makes it forget. */
  ForwardingStore store(SessionStore correct) {
    return ForwardingStore.of(correct).withSessions(this::sessions).withRuns(this::runs);
  }

  /** Sessions whose forks of a forgotten session are remembered as runless. */
  private Sessions sessions(Sessions sessions) {
    return new ForwardingSessions(sessions) {
      @Override
      public Session fork(String sessionId, long atSeq) {
        return mark(sessionId, delegate.fork(sessionId, atSeq));
      }

      @Override
      public Session fork(String sessionId, long atSeq, String newSessionId) {
        return mark(sessionId, delegate.fork(sessionId, atSeq, newSessionId));
      }
    };
  }

  /** Runs that list none for a runless fork. */
  private Runs runs(Runs runs) {
    return new ForwardingRuns(runs) {
      @Override
      public List<Run> list(String sessionId) {
        return runless.contains(sessionId) ? List.of() : delegate.list(sessionId);
      }
    };
  }

  private Session mark(String sourceId, Session fork) {
    if (forgotten.contains(sourceId)) {
      runless.add(fork.id());
    }
    return fork;
  }
}
