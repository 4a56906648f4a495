package dev.sessionstore;

/**
 * What one application of a {@link RetentionPolicy} removed, or, for a dry run, would remove: a count per kind.
 * Immutable.
 *
 * @param dryRun     whether nothing was written (the counts say what an application at that instant would remove)
 * @param sessions   sessions deleted by the idle-session rule (with everything they owned)
 * @param events     events cut from logs by the events-per-session rule (events of deleted sessions not counted)
 * @param modelCalls model-call audit rows removed by age (rows of deleted sessions not counted)
 */
public record RetentionReport(boolean dryRun, long sessions, long events, long modelCalls) {

  /**
   * Checks the counts.
   *
   * @throws InvalidArgumentException naming a negative count
   */
  public RetentionReport {
    Checks.requireNonNegative("sessions", sessions);
    Checks.requireNonNegative("events", events);
    Checks.requireNonNegative("modelCalls", modelCalls);
  }

  /** Nothing removed. */
  public static RetentionReport none(boolean dryRun) {
    return new RetentionReport(dryRun, 0, 0, 0);
  }

  /** This report and {@code other} added up, as one run (dry if this one is). */
  public RetentionReport plus(RetentionReport other) {
    return new RetentionReport(dryRun, sessions + other.sessions, events + other.events,
        modelCalls + other.modelCalls);
  }

  /** Whether nothing was (or would be) removed. */
  public boolean isEmpty() {
    return sessions == 0 && events == 0 && modelCalls == 0;
  }
}
