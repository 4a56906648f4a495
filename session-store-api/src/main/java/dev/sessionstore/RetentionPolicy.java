package dev.sessionstore;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What a store's {@link Retention} removes: up to three rules, each optional, at least one set. Immutable; build it
 * with {@link #builder()}.
 *
 * <ul>
 *   <li><b>Idle sessions</b> ({@link #idleSessionAge()}): a session whose last activity is more than this age ago by
 *       the store clock is deleted with everything it owns, as {@link Sessions#delete} deletes it. Its last activity
 *       is the later of its {@link Session#updatedAt()} and the timestamp of its last event (appends do not change
 *       {@code updatedAt}). Optionally only sessions in one of {@link #idleStatuses()} (empty: any status), and only
 *       those of {@link #idleTenant()} (empty: every session). Forks of a deleted session keep what they show.</li>
 *   <li><b>Events per session</b> ({@link #maxEventsPerSession()}): a session holding more events than this loses
 *       its oldest chapters (<a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#fine-print">the guarantees' fine print</a>: the events after one summary's {@code toSeq} up to the
 *       next one's), whole and oldest first, until it holds at most this many or the next chapter to cut is the one
 *       after its latest summary, which is never cut: every event removed is covered by a summary that stays. The
 *       summaries stay (they stand for the events they cover), and so do seqs: the log then starts after the cut,
 *       {@link Session#lastSeq()} is unchanged and the next append continues after it. Forks of the session keep
 *       the events they show; an id of a removed event is free again in that session.</li>
 *   <li><b>Model-call audit</b> ({@link #modelCallAge()}): rows recorded more than this age ago are removed, as
 *       {@link ModelCallAudit#deleteOlderThan(Duration)} removes them.</li>
 * </ul>
 *
 * @param idleSessionAge      delete sessions idle for longer than this; empty: keep idle sessions
 * @param idleStatuses        only idle sessions with one of these statuses; empty: any status
 * @param idleTenant          only idle sessions of this tenant; empty: every session
 * @param maxEventsPerSession cut chapters of sessions holding more events; empty: keep every event
 * @param modelCallAge        remove audit rows older than this; empty: keep audit rows
 */
public record RetentionPolicy(
    Optional<Duration> idleSessionAge,
    Set<SessionStatus> idleStatuses,
    Optional<String> idleTenant,
    OptionalInt maxEventsPerSession,
    Optional<Duration> modelCallAge) {

  /**
   * Checks and copies the members.
   *
   * @throws InvalidArgumentException naming the member that is null, negative, below 1 (the event count), a scope
   *                                  without the idle-session rule, or if no rule is set
   */
  public RetentionPolicy {
    Checks.requireNonNull("idleSessionAge", idleSessionAge).ifPresent(age -> requireAge("idleSessionAge", age));
    idleStatuses = Set.copyOf(Checks.requireNonNull("idleStatuses", idleStatuses));
    Checks.requireNonNull("idleTenant", idleTenant).ifPresent(tenant -> Checks.requireKey("idleTenant", tenant));
    Checks.requireNonNull("maxEventsPerSession", maxEventsPerSession)
        .ifPresent(max -> Checks.requirePositive("maxEventsPerSession", max));
    Checks.requireNonNull("modelCallAge", modelCallAge).ifPresent(age -> requireAge("modelCallAge", age));
    if (idleSessionAge.isEmpty() && (!idleStatuses.isEmpty() || idleTenant.isPresent())) {
      throw new InvalidArgumentException(idleStatuses.isEmpty() ? "idleTenant" : "idleStatuses",
          "narrows the idle-session rule, which is not set; set idleSessionAge too");
    }
    if (idleSessionAge.isEmpty() && maxEventsPerSession.isEmpty() && modelCallAge.isEmpty()) {
      throw new InvalidArgumentException("policy",
          "sets no rule; set idleSessionAge, maxEventsPerSession or modelCallAge");
    }
  }

  private static void requireAge(String field, Duration age) {
    if (age.isNegative()) {
      throw new InvalidArgumentException(field, "must not be negative, was " + age);
    }
  }

  /** Whether {@code status} and {@code tenant} are in the idle-session rule's scope. */
  public boolean scopes(SessionStatus status, String tenant) {
    return (idleStatuses.isEmpty() || idleStatuses.contains(status))
        && idleTenant.map(scope -> scope.equals(tenant)).orElse(true);
  }

  /** A builder with no rule set. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link RetentionPolicy}; each setter may be called once. Not thread-safe. */
  public static final class Builder {

    private Duration idleSessionAge;
    private Set<SessionStatus> idleStatuses;
    private String idleTenant;
    private Integer maxEventsPerSession;
    private Duration modelCallAge;

    private Builder() {
    }

    /**
     * Deletes sessions whose last activity is more than {@code age} ago.
     *
     * @throws InvalidArgumentException naming {@code idleSessionAge} if it is null, negative or was already set
     */
    public Builder deleteSessionsIdleFor(Duration age) {
      once("idleSessionAge", idleSessionAge);
      requireAge("idleSessionAge", Checks.requireNonNull("idleSessionAge", age));
      idleSessionAge = age;
      return this;
    }

    /**
     * Narrows the idle-session rule to sessions with one of {@code statuses}.
     *
     * @throws InvalidArgumentException naming {@code idleStatuses} if it is empty, holds null or was already set
     */
    public Builder onlyStatuses(SessionStatus... statuses) {
      once("idleStatuses", idleStatuses);
      Checks.requireNonNull("idleStatuses", statuses);
      if (statuses.length == 0) {
        throw new InvalidArgumentException("idleStatuses", "must name at least one status");
      }
      Arrays.stream(statuses).forEach(status -> Checks.requireNonNull("idleStatuses", status));
      idleStatuses = new LinkedHashSet<>(Arrays.asList(statuses));
      return this;
    }

    /**
     * Narrows the idle-session rule to the sessions of {@code tenant}.
     *
     * @throws InvalidArgumentException naming {@code idleTenant} if it is not a valid key or was already set
     */
    public Builder onlyTenant(String tenant) {
      once("idleTenant", idleTenant);
      idleTenant = Checks.requireKey("idleTenant", tenant);
      return this;
    }

    /**
     * Cuts whole chapters below the latest summary of sessions holding more than {@code max} events.
     *
     * @throws InvalidArgumentException naming {@code maxEventsPerSession} if it is below 1 or was already set
     */
    public Builder keepEventsPerSession(int max) {
      once("maxEventsPerSession", maxEventsPerSession);
      maxEventsPerSession = (int) Checks.requirePositive("maxEventsPerSession", max);
      return this;
    }

    /**
     * Removes model-call audit rows recorded more than {@code age} ago.
     *
     * @throws InvalidArgumentException naming {@code modelCallAge} if it is null, negative or was already set
     */
    public Builder deleteModelCallsOlderThan(Duration age) {
      once("modelCallAge", modelCallAge);
      requireAge("modelCallAge", Checks.requireNonNull("modelCallAge", age));
      modelCallAge = age;
      return this;
    }

    /**
     * The policy.
     *
     * @throws InvalidArgumentException if no rule is set, or a scope is set without the idle-session rule
     */
    public RetentionPolicy build() {
      return new RetentionPolicy(Optional.ofNullable(idleSessionAge),
          idleStatuses == null ? Set.of() : idleStatuses, Optional.ofNullable(idleTenant),
          maxEventsPerSession == null ? OptionalInt.empty() : OptionalInt.of(maxEventsPerSession),
          Optional.ofNullable(modelCallAge));
    }

    private static void once(String field, Object current) {
      if (current != null) {
        throw new InvalidArgumentException(field, "was already set to " + current + "; each setter may be called once");
      }
    }
  }
}
