package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * Compaction summaries, revival reads and chapter paging (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#9">9</a>). Thread-safe.
 */
public interface Summaries {

  /**
   * Stores a summary, replacing the session's summary with the same {@code toSeq}.
   *
   * @throws NotFoundException        if the session does not exist
   * @throws InvalidArgumentException if {@code toSeq} is past the session's last seq
   */
  Summary put(String sessionId, NewSummary summary);

  /** The session's summary with the greatest {@code toSeq}, or empty. */
  Optional<Summary> latest(String sessionId);

  /** The session's summaries by ascending {@code toSeq}. */
  List<Summary> list(String sessionId);

  /**
   * The latest summary plus the events after its {@code toSeq}, in one call and one consistent view; every event
   * when there is no summary; empty for an unknown session.
   */
  Revival revive(String sessionId);

  /**
   * Like {@link #revive(String)}, with only the events of agent {@code agentId}: the summary stays the session's
   * latest (summaries cover the whole session), the events after its {@code toSeq} are those {@code agentId} wrote.
   * One consistent read.
   */
  Revival revive(String sessionId, String agentId);

  /** The chapter closed by the summary whose {@code toSeq} is given, or empty when there is no such summary. */
  Optional<Chapter> chapter(String sessionId, long summaryToSeq);

  /**
   * Like {@link #chapter(String, long)}, with only the events of agent {@code agentId}; the summaries (this one and
   * the previous) are the session's. One consistent read.
   */
  Optional<Chapter> chapter(String sessionId, long summaryToSeq, String agentId);
}
