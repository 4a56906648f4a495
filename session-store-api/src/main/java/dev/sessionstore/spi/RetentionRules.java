package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;
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

  /** The shortest schedule interval a store accepts: shorter would keep a thread sweeping without pause. */
  public static final Duration MIN_INTERVAL = Duration.ofMillis(10);

  /**
   * The longest schedule interval a store accepts. A schedule lives in the process that built the store and runs first
   * one interval after the build, so a longer interval could outlast the process (a daily interval on instances
   * redeployed every few hours would never sweep); with at most an hour, data outlives its policy by at most an hour
   * of a running instance, and a sweep with nothing to remove costs one indexed read.
   */
  public static final Duration MAX_INTERVAL = Duration.ofHours(1);

  private RetentionRules() {
  }

  /**
   * {@code interval}, checked as every adapter's builder checks the interval of a retention schedule: between
   * {@link #MIN_INTERVAL} (10 ms) and {@link #MAX_INTERVAL} (1 hour), both included.
   *
   * @throws InvalidArgumentException naming {@code retentionInterval} if it is null or out of that range
   */
  public static Duration requireInterval(Duration interval) {
    Arguments.requireNonNull("retentionInterval", interval);
    if (interval.compareTo(MIN_INTERVAL) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
      throw new InvalidArgumentException("retentionInterval", interval + " is out of range: use between "
          + MIN_INTERVAL.toMillis() + " ms and " + MAX_INTERVAL.toHours() + " hour");
    }
    return interval;
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
