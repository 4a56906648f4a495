package dev.sessionstore;

import java.util.List;
import java.util.Optional;

/**
 * What a committed {@link Step} left stored, member by member, in the order of the step's lists.
 *
 * @param session     the session as stored after the step
 * @param run         the run as stored, when the step had a run upsert
 * @param removed     how many events the step's cut removed (0 without a cut, or when it removed nothing)
 * @param events      one stored event per event of the step, in step order: new ones with their seqs, replayed ones
 *                    as stored earlier
 * @param toolCalls   one stored call per registration of the step, in step order
 * @param resolutions one outcome per resolution of the step, in step order: each {@link Resolution.Resolved} or
 *                    {@link Resolution.Replayed} (a stale one rejects the whole step)
 * @param summary     the summary as stored, when the step had one
 * @param checkpoints the checkpoints the step put, as stored, in step order (deletes are not listed)
 * @param modelCall   the model-call audit row as stored, when the step had one and the store's audit is on
 */
public record StepResult(
    Session session,
    Optional<Run> run,
    int removed,
    List<Event> events,
    List<ToolCall> toolCalls,
    List<Resolution> resolutions,
    Optional<Summary> summary,
    List<Checkpoint> checkpoints,
    Optional<ModelCall> modelCall) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public StepResult {
    Checks.requireNonNull("session", session);
    Checks.requireNonNull("run", run);
    Checks.requireNonNegative("removed", removed);
    events = List.copyOf(Checks.requireNonNull("events", events));
    toolCalls = List.copyOf(Checks.requireNonNull("toolCalls", toolCalls));
    resolutions = List.copyOf(Checks.requireNonNull("resolutions", resolutions));
    Checks.requireNonNull("summary", summary);
    checkpoints = List.copyOf(Checks.requireNonNull("checkpoints", checkpoints));
    Checks.requireNonNull("modelCall", modelCall);
  }

  /**
   * The seq the session's log ends at after the step ({@link Session#lastSeq()} of {@link #session()}): the expected
   * seq of the runtime's next step, so it never tracks it by hand.
   */
  public long lastSeq() {
    return session.lastSeq();
  }
}
