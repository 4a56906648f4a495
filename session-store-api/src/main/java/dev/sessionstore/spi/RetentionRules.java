package dev.sessionstore.spi;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.Session;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;

/**
 * What a {@link RetentionPolicy} removes, decided once for every adapter (the rules are documented on the policy):
 * which sessions are idle, and where the events-per-session rule cuts a log. Adapters apply them per session under
 * the locks of a deletion or a truncation, and a dry run asks the same questions without writing.
 */
public final class RetentionRules {

  private RetentionRules() {
  }

  /** The instant {@code age} before {@code now}: what happened before it is older than {@code age}. */
  public static Instant cutoff(Instant now, Duration age) {
    return Timeouts.cutoff(now, age);
  }

  /**
   * Whether the idle-session rule of {@code policy} (which sets it) deletes {@code session}, whose last event carries
   * {@code lastEventAt} ({@code null} for an empty log), when its cutoff is {@code cutoff}: the session is in the
   * rule's scope, and neither it nor its last event changed at or after the cutoff.
   */
  public static boolean isIdle(RetentionPolicy policy, Session session, Instant lastEventAt, Instant cutoff) {
    return policy.scopes(session.status(), session.tenant())
        && session.updatedAt().isBefore(cutoff)
        && (lastEventAt == null || lastEventAt.isBefore(cutoff));
  }

  /**
   * The seq through which the events-per-session rule cuts a log that holds seqs {@code firstSeq..lastSeq}, whose
   * summaries end at {@code summaryEnds} (each at most {@code lastSeq}, as summaries never pass the log's end), to
   * keep at most {@code maxEvents}; nothing is to be cut when the result is below {@code firstSeq}: when the log holds
   * at most that many, or no summary ends inside it. The cut always ends at a summary's {@code toSeq} (whole
   * chapters), never past the latest one: of the summary ends, in order, the first that leaves at most
   * {@code maxEvents}, else the last (ends before {@code firstSeq}, already cut, leave more than that).
   */
  public static long cutThrough(long firstSeq, long lastSeq, Collection<Long> summaryEnds, int maxEvents) {
    long none = firstSeq - 1;
    if (lastSeq - none <= maxEvents) {
      return none;
    }
    long chosen = none;
    for (long end : summaryEnds.stream().sorted().toList()) {
      chosen = end;
      if (lastSeq - end <= maxEvents) {
        break;
      }
    }
    return chosen;
  }
}
