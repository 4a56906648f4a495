package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * Runs of sessions. A run id is unique within its session: every lookup takes the session id, and the same run id in
 * two sessions (or in a fork and its parent) names two runs. Thread-safe, read-after-write consistent: a run saved as
 * {@link RunStatus#RUNNING} or {@link RunStatus#WAITING} is the active run for the very next {@link #active} call
 * from any thread (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#6">6</a>).
 */
public interface Runs {

  /** Creates or updates a run and returns it as stored; saving twice upserts. Creates the session if unknown. */
  Run save(RunWrite run);

  /** The session's run with this id, or empty. */
  Optional<Run> find(String sessionId, String runId);

  /** The session's runs in creation order, then by id (code point
   * order); empty for an unknown session. */
  List<Run> list(String sessionId);

  /** The session's runs with {@code status}, in creation order (then by id). */
  List<Run> list(String sessionId, RunStatus status);

  /**
   * The session's active run: the one that is {@link RunStatus#RUNNING} or {@link RunStatus#WAITING} (a run waiting
   * hours for a human stays active). When several are, the most recently updated one (of runs updated at the same
   * instant, the one saved last). Empty when none is, or for an unknown session.
   */
  Optional<Run> active(String sessionId);
}
