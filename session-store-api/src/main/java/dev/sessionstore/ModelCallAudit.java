package dev.sessionstore;

import java.time.Duration;
import java.util.List;

/**
 * The model-call audit: what was sent to the model, turn by turn. Off unless enabled when the store is built; while
 * off, {@link #record} stores nothing and {@link #list} is empty. Thread-safe.
 */
public interface ModelCallAudit {

  /** Whether this store records audit rows. */
  boolean enabled();

  /**
   * Records one turn, replacing an earlier row of the same turn. Creates the session if unknown.
   *
   * @return whether the row was stored ({@code false} while the audit is off)
   */
  boolean record(String sessionId, NewModelCall call);

  /** The session's rows ordered by turn; empty while the audit is off. */
  List<ModelCall> list(String sessionId);

  /**
   * Removes the session's rows recorded more than {@code age} ago by the store clock.
   *
   * @return how many rows were removed
   */
  int deleteOlderThan(String sessionId, Duration age);

  /** Removes every session's rows recorded more than {@code age} ago; returns how many. */
  int deleteOlderThan(Duration age);
}
