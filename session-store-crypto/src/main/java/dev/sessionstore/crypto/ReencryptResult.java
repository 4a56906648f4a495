package dev.sessionstore.crypto;

import dev.sessionstore.spi.Arguments;
import java.util.Optional;

/**
 * What a re-encryption pass did ({@link EncryptingSessionStore#reencrypt}), or, as a dry run, would do. Every
 * scanned value is counted in exactly one of the other counts.
 *
 * @param dryRun         whether nothing was written
 * @param scanned        values looked at
 * @param rewritten      values moved to the current key (in a dry run: that would be)
 * @param alreadyCurrent values already sealed under the current key, left as they are
 * @param notSealed      values stored in clear (written before encryption was turned on, or by the adapter itself,
 *                       like an expired tool call's result), left as they are
 * @param changed        values a writer changed or removed between the scan and the rewrite, left as the writer left
 *                       them (a newer value is sealed under the current key already)
 * @param resumeCursor   where a later run continues ({@link ReencryptOptions#withResumeFrom}); empty when this run
 *                       reached the end of the store
 */
public record ReencryptResult(boolean dryRun, long scanned, long rewritten, long alreadyCurrent, long notSealed,
    long changed, Optional<String> resumeCursor) {

  /**
   * Checks the members.
   * @throws dev.sessionstore.InvalidArgumentException naming a negative count, or {@code resumeCursor} if null
   */
  public ReencryptResult {
    Arguments.requireNonNegative("scanned", scanned);
    Arguments.requireNonNegative("rewritten", rewritten);
    Arguments.requireNonNegative("alreadyCurrent", alreadyCurrent);
    Arguments.requireNonNegative("notSealed", notSealed);
    Arguments.requireNonNegative("changed", changed);
    Arguments.requireNonNull("resumeCursor", resumeCursor);
  }

  /** Whether the run reached the end of the store: no value is left for a later run to scan. */
  public boolean complete() {
    return resumeCursor.isEmpty();
  }
}
