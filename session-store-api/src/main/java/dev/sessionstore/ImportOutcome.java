package dev.sessionstore;

/**
 * What {@link Archives#importSession} or {@link Archives#importGlobalCheckpoint} did. Each outcome is an expected
 * result, not an error, so that a caller importing many archives counts them and carries on.
 */
public enum ImportOutcome {
  /** The store held nothing under the archive's key; everything in the archive is now stored. */
  IMPORTED,
  /** The store already held exactly what the archive holds (an import repeated): nothing was written. */
  UNCHANGED,
  /**
   * The store holds something else under the archive's key (a different session with its id, another session with
   * its name, a different checkpoint under its name): nothing was written.
   */
  CONFLICT
}
