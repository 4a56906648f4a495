package dev.sessionstore;

import java.time.Instant;

/**
 * One execution of the agent in a session, as stored. Immutable.
 *
 * @param id        run id, unique within its session (the same id in two sessions names two runs)
 * @param sessionId session it runs in
 * @param status    lifecycle status
 * @param usage     usage data (tokens, cost, ...), {@code {}} by default
 * @param error     error data of a failed run, or {@code null}
 * @param createdAt when the store first saved it
 * @param updatedAt when the store last changed it
 */
public record Run(
    String id,
    String sessionId,
    RunStatus status,
    Json usage,
    Json error,
    Instant createdAt,
    Instant updatedAt) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public Run {
    Checks.requireKey("id", id);
    Checks.requireKey("sessionId", sessionId);
    Checks.requireNonNull("status", status);
    Checks.requireNonNull("usage", usage);
    createdAt = Checks.requireInstant("createdAt", createdAt);
    updatedAt = Checks.requireInstant("updatedAt", updatedAt);
  }
}
