package dev.sessionstore.crypto;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.spi.Arguments;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How {@link EncryptingSessionStore#reencrypt} runs: for real or as a dry run, how many values it looks at, where it
 * starts and whom it tells how far it got. Immutable; each {@code with...} returns a copy.
 *
 * @param dryRun     count what would move to the current key and write nothing
 * @param limit      the most values this run scans; 0 for no limit (the run then goes to the end)
 * @param resumeFrom where to start: the {@link ReencryptResult#resumeCursor()} of an earlier run; empty from the start
 * @param progress   told the running totals after each page of values (at most {@value EncryptingSessionStore#PAGE}
 *                   values), on the thread that runs the pass
 */
public record ReencryptOptions(boolean dryRun, long limit, Optional<String> resumeFrom,
    Consumer<ReencryptResult> progress) {

  /**
   * Checks the members.
   * @throws InvalidArgumentException naming {@code limit} if negative, {@code resumeFrom} or {@code progress} if null
   */
  public ReencryptOptions {
    Arguments.requireNonNegative("limit", limit);
    Arguments.requireNonNull("resumeFrom", resumeFrom);
    Arguments.requireNonNull("progress", progress);
  }

  /** A full run from the start that writes, with no limit and no progress callback. */
  public static ReencryptOptions defaults() {
    return new ReencryptOptions(false, 0, Optional.empty(), result -> { });
  }

  /** A copy that is a dry run, or not. */
  public ReencryptOptions withDryRun(boolean dryRun) {
    return new ReencryptOptions(dryRun, limit, resumeFrom, progress);
  }

  /**
   * A copy that scans at most {@code limit} values (0: no limit).
   * @throws InvalidArgumentException naming {@code limit} if negative
   */
  public ReencryptOptions withLimit(long limit) {
    return new ReencryptOptions(dryRun, limit, resumeFrom, progress);
  }

  /**
   * A copy that starts where an earlier run stopped.
   * @throws InvalidArgumentException naming {@code resumeFrom} if null
   */
  public ReencryptOptions withResumeFrom(String cursor) {
    return new ReencryptOptions(dryRun, limit, Optional.of(Arguments.requireNonNull("resumeFrom", cursor)), progress);
  }

  /**
   * A copy that tells {@code progress} the running totals after each page.
   * @throws InvalidArgumentException naming {@code progress} if null
   */
  public ReencryptOptions withProgress(Consumer<ReencryptResult> progress) {
    return new ReencryptOptions(dryRun, limit, resumeFrom, progress);
  }
}
