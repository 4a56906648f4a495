package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.ResumeRule;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One conversation as stored. Immutable.
 *
 * @param id         caller-chosen or generated id, byte-exact
 * @param name       optional human name, unique across the store; {@code null} when unnamed
 * @param tenant     optional tenant key; {@code null} when none
 * @param agentId    optional agent id; {@code null} when none
 * @param status     current status, {@link SessionStatus#ACTIVE} when created implicitly
 * @param settings   the session's config template (model, resume policy, ...); {@code {}} by default. A session
 *                   whose settings hold {@code "resume_policy": "eager"} is listed by {@link Sessions#listResumable()}
 * @param metadata   string map, merged on write
 * @param forkedFrom where this session was forked from; {@code null} for an original session
 * @param createdAt  when the store created it (microsecond precision)
 * @param updatedAt  when the store last changed it (microsecond precision)
 * @param lastSeq    the seq of the last event of its log as of this read, 0 while the log is empty: a runtime's next
 *                   expected seq ({@link Step.Builder#expectLastSeq}, {@link EventLog#appendAll} with an expected seq)
 *                   without tracking it by hand. Appends and truncations change it but not {@code updatedAt}
 */
public record Session(
    String id,
    String name,
    String tenant,
    String agentId,
    SessionStatus status,
    Json settings,
    Map<String, String> metadata,
    ForkOrigin forkedFrom,
    Instant createdAt,
    Instant updatedAt,
    long lastSeq) {

  public Session {
    Arguments.requireKey("id", id);
    Arguments.optionalKey("name", name);
    Arguments.optionalKey("tenant", tenant);
    Arguments.optionalKey("agentId", agentId);
    Arguments.requireNonNull("status", status);
    Arguments.requireNonNull("settings", settings);
    metadata = Map.copyOf(Arguments.requireNonNull("metadata", metadata));
    createdAt = Arguments.requireInstant("createdAt", createdAt);
    updatedAt = Arguments.requireInstant("updatedAt", updatedAt);
    Arguments.requireNonNegative("lastSeq", lastSeq);
  }

  /** This session with {@code seq} as its {@link #lastSeq()}, every other field the same. */
  public Session withLastSeq(long seq) {
    return seq == lastSeq ? this
        : new Session(id, name, tenant, agentId, status, settings, metadata, forkedFrom, createdAt, updatedAt, seq);
  }

  /** Where this session was forked from, if it is a fork. */
  public Optional<ForkOrigin> forkOrigin() {
    return Optional.ofNullable(forkedFrom);
  }

  /** Whether {@link #settings()} ask for eager resumption ({@code "resume_policy": "eager"}), by {@link ResumeRule}. */
  public boolean resumesEagerly() {
    return ResumeRule.resumesEagerly(settings);
  }
}
