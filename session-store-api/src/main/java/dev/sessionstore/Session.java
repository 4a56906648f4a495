package dev.sessionstore;

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
 * @param expiresAt  when the session expires, as its writer set it ({@link SessionWrite#withExpiresAt}), microsecond
 *                   precision; {@code null} when it never expires. The store never deletes or hides a session because
 *                   its expiry passed: expiry is a fact that {@link SessionQuery#expiresBefore} finds by index and that
 *                   callers act on. A fork does not inherit it; an archive carries it
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
    Instant expiresAt,
    long lastSeq) {

  /** The settings member that names a session's resume policy ({@link #resumesEagerly()}). */
  public static final String RESUME_POLICY = "resume_policy";

  /** The value of {@value #RESUME_POLICY} that asks for eager resumption ({@link #resumesEagerly()}). */
  public static final String EAGER = "eager";

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public Session {
    Checks.requireKey("id", id);
    Checks.optionalKey("name", name);
    Checks.optionalKey("tenant", tenant);
    Checks.optionalKey("agentId", agentId);
    Checks.requireNonNull("status", status);
    Checks.requireNonNull("settings", settings);
    metadata = Map.copyOf(Checks.requireNonNull("metadata", metadata));
    createdAt = Checks.requireInstant("createdAt", createdAt);
    updatedAt = Checks.requireInstant("updatedAt", updatedAt);
    expiresAt = Checks.optionalInstant("expiresAt", expiresAt);
    Checks.requireNonNegative("lastSeq", lastSeq);
  }

  /** This session with {@code seq} as its {@link #lastSeq()}, every other field the same. */
  public Session withLastSeq(long seq) {
    return seq == lastSeq ? this
        : new Session(id, name, tenant, agentId, status, settings, metadata, forkedFrom, createdAt, updatedAt,
            expiresAt, seq);
  }

  /** Where this session was forked from, if it is a fork. */
  public Optional<ForkOrigin> forkOrigin() {
    return Optional.ofNullable(forkedFrom);
  }

  /** When this session expires, if its writer set an expiry ({@link #expiresAt()}). */
  public Optional<Instant> expiry() {
    return Optional.ofNullable(expiresAt);
  }

  /**
   * Whether {@link #settings()} ask for eager resumption: they are a JSON object whose top-level string member
   * {@value #RESUME_POLICY} equals {@value #EAGER}, whatever the session's status. Any other value, a non-string
   * value or a nested member does not count. {@link Sessions#listResumable()} lists exactly these sessions.
   */
  public boolean resumesEagerly() {
    return resumesEagerly(settings);
  }

  /** The rule of {@link #resumesEagerly()} for settings not yet in a session; the adapters' SPI applies this one. */
  static boolean resumesEagerly(Json settings) {
    return settings.stringMember(RESUME_POLICY).filter(EAGER::equals).isPresent();
  }
}
