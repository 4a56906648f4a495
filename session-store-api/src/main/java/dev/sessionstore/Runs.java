package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * Runs of sessions. Thread-safe, read-after-write consistent: a run saved as {@link RunStatus#RUNNING} is the active
 * run for the very next {@link #active} call from any thread (SPEC guarantee 6).
 */
public interface Runs {

  /**
   * Creates or updates a run and returns it as stored; saving twice upserts. Creates the session if unknown.
   *
   * @throws ConflictException if the run id belongs to another session
   */
  Run save(RunWrite run);

  /** The run with this id, or empty. */
  Optional<Run> find(String runId);

  /** The session's runs in creation order, then by id ({@linkplain dev.sessionstore.spi.IdOrder code point
   * order}); empty for an unknown session. */
  List<Run> list(String sessionId);

  /** The session's runs with {@code status}, in creation order (then by id). */
  List<Run> list(String sessionId, RunStatus status);

  /** The session's running run; when several run, the most recently updated. Empty when none runs. */
  Optional<Run> active(String sessionId);
}
