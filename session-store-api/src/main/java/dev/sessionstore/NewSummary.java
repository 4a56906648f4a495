package dev.sessionstore;


/**
 * A compaction summary to store: it covers events {@code fromSeq..toSeq} (inclusive) of a session. The log stays the
 * source of truth; a summary is derived from it.
 *
 * @param version a caller-defined version of the summarizer or format, at least 1
 */
public record NewSummary(long fromSeq, long toSeq, Json content, int version) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public NewSummary {
    Checks.requirePositive("summary.fromSeq", fromSeq);
    Checks.requirePositive("summary.toSeq", toSeq);
    if (toSeq < fromSeq) {
      throw new InvalidArgumentException("summary.toSeq", "must be >= fromSeq (" + toSeq + " < " + fromSeq + ")");
    }
    Checks.requireNonNull("summary.content", content);
    Checks.requirePositive("summary.version", version);
  }

  /** A version-1 summary. */
  public static NewSummary of(long fromSeq, long toSeq, Json content) {
    return new NewSummary(fromSeq, toSeq, content, 1);
  }
}
