package dev.sessionstore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * Everything one step of an agent loop writes to one session, committed atomically by {@link SessionStore#commit}
 * (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#16">16</a>). Every member is optional and members combine freely. Build one with {@link
 * #builder}:
 * <pre>{@code
 * // the model asked for a human approval: the tool_use event and the pending call, in one commit
 * Step request = Step.builder(sessionId)
 *     .run(RunWrite.of(runId, sessionId).withStatus(RunStatus.WAITING))
 *     .event(toolUse)
 *     .registerToolCall(ToolCallWrite.of(callId, sessionId, "approve").withRequestEventId(toolUse.id())
 *         .withDeadline(deadline))
 *     .expectLastSeq(seenSeq)
 *     .build();
 * // the human answered: the resolution and the tool_result event, in one commit
 * Step answer = Step.builder(sessionId)
 *     .resolve(callId, ToolCallStatus.COMPLETED, approval)
 *     .event(toolResult)
 *     .run(RunWrite.of(runId, sessionId).withStatus(RunStatus.RUNNING))
 *     .build();
 * }</pre>
 *
 * <h2>What a commit does, in this order, in one transaction</h2>
 * <ol>
 *   <li><b>Fence</b> ({@link #fence}): the token must be the session's current one ({@link Sessions#claim}), checked
 *       atomically with the rest of the commit, or nothing is stored and the commit fails with
 *       {@link FencedWriterException}, also for a step that would store nothing new. A step without a token is not
 *       checked. Needs {@link Capability#WRITER_FENCING}.</li>
 *   <li><b>Expected last seq</b> ({@link #expectedLastSeq}): checked against the log as it is before the step (before
 *       the cut), when the step changes the log, that is when its cut removes at least one event or it stores at
 *       least one new event. A step that leaves the log as it is (no events, only replayed events, a cut past the
 *       end) commits whatever the log ends at, so a replayed step never fails on it (guarantee
 *       <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#5">5</a>).</li>
 *   <li><b>Session</b> ({@link #session}): upserted with its metadata merged ({@link Sessions#save}). Committing any
 *       step creates its session when unknown, with status {@link SessionStatus#ACTIVE}. A metadata merge
 *       ({@link Builder#mergeMetadata}) is part of this upsert: its keys are merged into the stored metadata as
 *       {@link Sessions#mergeMetadata} does, and since the step creates its session when unknown, it never fails for
 *       an unknown session.</li>
 *   <li><b>Run</b> ({@link #run}): upserted ({@link Runs#save}).</li>
 *   <li><b>Cut</b> ({@link #truncateFrom}): the log loses the event at that seq and every later one, with every
 *       summary whose {@code toSeq >= truncateFrom} ({@link EventLog#truncate}); the session must exist before the
 *       step.</li>
 *   <li><b>Events</b> ({@link #events}): appended after the cut, by the rules of {@link EventLog#appendAll}
 *       (replayed ids return the stored event, a reused id with other content fails).</li>
 *   <li><b>Tool calls registered</b> ({@link #toolCalls}): as {@link ToolCalls#save}; a requesting event named by
 *       a call must be in the log as it stands after the step's events.</li>
 *   <li><b>Resolutions</b> ({@link #resolutions}): compare-and-set from pending, as {@link ToolCalls#resolve}, also
 *       of calls registered by the same step.</li>
 *   <li><b>Deadlines</b> ({@link #deadlines}): set or cancelled, as {@link ToolCalls#expireAt} and
 *       {@link ToolCalls#cancelDeadline}; the call must exist.</li>
 *   <li><b>Summary</b> ({@link #summary}): stored as {@link Summaries#put}; its {@code toSeq} may reach the step's own
 *       events.</li>
 *   <li><b>Checkpoints</b> ({@link #checkpoints}): the session's checkpoints put or deleted.</li>
 *   <li><b>Model call</b> ({@link #modelCall}): the turn's audit row recorded as {@link ModelCallAudit#record} does
 *       (replacing a row of the same turn); while the store's audit is off it is not stored, and the result has
 *       none.</li>
 * </ol>
 *
 * <p><b>What a step does not hold.</b> A step is one session's partition (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#19">19</a>):
 * everything it writes belongs to {@link #sessionId}, so a backend can commit it in one transaction of one partition.
 * Global (store-wide) checkpoints ({@link CheckpointKey#global}, written with {@link Checkpoints#put}) belong to no
 * session and stay out of a step: write them apart, and make them idempotent for a retry.
 *
 * <h2>All or nothing</h2>
 * An invalid member, a resolution whose call is neither pending nor already resolved as asked, an expected-seq
 * mismatch, a reused event id with other content, or a missing session, event or tool call leaves the store exactly
 * as it was: no member is applied. A stale resolution is reported as a value ({@link StepOutcome.Rejected}), the rest
 * as exceptions.
 *
 * <h2>Retrying after an unknown outcome</h2>
 * Re-submitting the same step stores nothing twice and returns what is stored: events come back as stored (by id);
 * a resolution the call already holds comes back as {@link Resolution.Replayed}; upserts of the session, run, tool
 * calls (a stored call keeps its state and deadline), summary and checkpoints write the same values again. A cut
 * whose step's events already are the log's tail from the cut seq (the step was applied) removes nothing: a log that
 * holds exactly the step's new events from {@code truncateFrom} to its end is left as it is.
 *
 * <p>Immutable and thread-safe; a step may be committed any number of times. Everything a step names belongs to
 * {@link #sessionId}: a member naming another session is an {@link InvalidArgumentException}.
 *
 * @param sessionId       the session the step writes to
 * @param session         the session upsert; its id is {@code sessionId}
 * @param run             the run upsert; its session is {@code sessionId}
 * @param truncateFrom    the seq to cut the log at before the step's events (at least 1), or empty for no cut
 * @param events          events to append, possibly none; at most {@link Limits#MAX_BATCH_SIZE}
 * @param toolCalls       tool calls to register, distinct ids, all of {@code sessionId}
 * @param resolutions     tool calls to resolve, distinct ids
 * @param deadlines       deadlines to set or cancel, distinct ids
 * @param summary         a summary to store
 * @param checkpoints     session checkpoints to put or delete, distinct names
 * @param expectedLastSeq the seq the log must end at before the step (0 = empty log), or empty for no check
 * @param modelCall       the turn's model-call audit row to record
 * @param fence           the fencing token the writer holds ({@link WriterClaim#token()}), or empty for no check
 */
public record Step(
    String sessionId,
    Optional<SessionWrite> session,
    Optional<RunWrite> run,
    OptionalLong truncateFrom,
    List<NewEvent> events,
    List<ToolCallWrite> toolCalls,
    List<ToolCallResolution> resolutions,
    List<DeadlineChange> deadlines,
    Optional<NewSummary> summary,
    List<CheckpointChange> checkpoints,
    OptionalLong expectedLastSeq,
    Optional<NewModelCall> modelCall,
    OptionalLong fence) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public Step {
    Checks.requireKey("step.sessionId", sessionId);
    Checks.requireNonNull("step.session", session);
    session.ifPresent(write -> requireSameSession("step.session.id", write.id(), sessionId));
    Checks.requireNonNull("step.run", run);
    run.ifPresent(write -> requireSameSession("step.run.sessionId", write.sessionId(), sessionId));
    Checks.requireNonNull("step.truncateFrom", truncateFrom);
    truncateFrom.ifPresent(seq -> Checks.requirePositive("step.truncateFrom", seq));
    events = List.copyOf(Checks.requireNonNull("step.events", events).stream()
        .map(event -> Checks.requireNonNull("step.events[]", event)).toList());
    Checks.distinctEvents(sessionId, events);
    toolCalls = distinct("step.toolCalls", toolCalls, ToolCallWrite::id);
    toolCalls.forEach(call -> requireSameSession("step.toolCalls.sessionId", call.sessionId(), sessionId));
    resolutions = distinct("step.resolutions", resolutions, ToolCallResolution::toolCallId);
    deadlines = distinct("step.deadlines", deadlines, DeadlineChange::toolCallId);
    Checks.requireNonNull("step.summary", summary);
    checkpoints = distinct("step.checkpoints", checkpoints, CheckpointChange::name);
    Checks.requireNonNull("step.expectedLastSeq", expectedLastSeq);
    expectedLastSeq.ifPresent(seq -> Checks.requireNonNegative("step.expectedLastSeq", seq));
    Checks.requireNonNull("step.modelCall", modelCall);
    Checks.requireNonNull("step.fence", fence);
    fence.ifPresent(token -> Checks.requirePositive("step.fence", token));
  }

  /** A builder of a step writing to {@code sessionId}. */
  public static Builder builder(String sessionId) {
    return new Builder(Checks.requireKey("step.sessionId", sessionId));
  }

  /** Whether the step has no member at all; committing it only creates its session when unknown. */
  public boolean isEmpty() {
    return session.isEmpty() && run.isEmpty() && truncateFrom.isEmpty() && events.isEmpty() && toolCalls.isEmpty()
        && resolutions.isEmpty() && deadlines.isEmpty() && summary.isEmpty() && checkpoints.isEmpty()
        && modelCall.isEmpty();
  }

  /** The metadata patch the step merges into its session ({@link SessionWrite#metadata()}), {@code {}} for none. */
  public Map<String, String> metadata() {
    return session.map(SessionWrite::metadata).orElse(Map.of());
  }

  private static void requireSameSession(String field, String named, String sessionId) {
    if (!named.equals(sessionId)) {
      throw new InvalidArgumentException(field, "names session " + named + ", not the step's session " + sessionId);
    }
  }

  private static <T> List<T> distinct(String field, List<T> members, Function<T, String> key) {
    Checks.requireNonNull(field, members);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < members.size(); i++) {
      T member = Checks.requireNonNull(field + "[" + i + "]", members.get(i));
      if (!seen.add(key.apply(member))) {
        throw new InvalidArgumentException(field + "[" + i + "]", "names " + key.apply(member) + " twice");
      }
    }
    return List.copyOf(members);
  }

  /**
   * Builds a {@link Step}. Each setter rejects invalid input at once with an {@link InvalidArgumentException} naming
   * the field; {@link #build()} checks the whole step. Single-valued members (session, run, cut, summary, expected
   * seq) may be set once. Not thread-safe; a builder may build any number of steps.
   */
  public static final class Builder {

    private final String sessionId;
    private SessionWrite session;
    private RunWrite run;
    private OptionalLong truncateFrom = OptionalLong.empty();
    private final List<NewEvent> events = new ArrayList<>();
    private final List<ToolCallWrite> toolCalls = new ArrayList<>();
    private final List<ToolCallResolution> resolutions = new ArrayList<>();
    private final List<DeadlineChange> deadlines = new ArrayList<>();
    private NewSummary summary;
    private final List<CheckpointChange> checkpoints = new ArrayList<>();
    private OptionalLong expectedLastSeq = OptionalLong.empty();
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private NewModelCall modelCall;
    private OptionalLong fence = OptionalLong.empty();

    private Builder(String sessionId) {
      this.sessionId = sessionId;
    }

    /** Upserts the session with {@code write}, whose id must be the step's session. */
    public Builder session(SessionWrite write) {
      Checks.requireNonNull("step.session", write);
      requireUnset("step.session", session);
      requireSameSession("step.session.id", write.id(), sessionId);
      session = write;
      return this;
    }

    /**
     * Merges {@code patch} into the session's metadata as part of the step's session upsert: a key mapped to
     * {@code null} is removed, the others are set, over the metadata of a {@link #session} write (later merges win
     * for a key set twice). Never fails for an unknown session: the step creates it.
     *
     * @throws InvalidArgumentException naming {@code step.metadata} if the patch, a key or a value is invalid
     */
    public Builder mergeMetadata(Map<String, String> patch) {
      metadata.putAll(Checks.requireMetadataPatch("step.metadata", patch));
      return this;
    }

    /** Records {@code call}, the turn's model-call audit row, with the step. */
    public Builder modelCall(NewModelCall call) {
      Checks.requireNonNull("step.modelCall", call);
      requireUnset("step.modelCall", modelCall);
      modelCall = call;
      return this;
    }

    /** Upserts {@code write}, a run of the step's session. */
    public Builder run(RunWrite write) {
      Checks.requireNonNull("step.run", write);
      requireUnset("step.run", run);
      requireSameSession("step.run.sessionId", write.sessionId(), sessionId);
      run = write;
      return this;
    }

    /**
     * Cuts the log at {@code seq} (that event and all after it) before the step's events are appended, as
     * {@link EventLog#truncate} does: the calls whose requesting event is cut (and not appended again by the step)
     * lose that link.
     */
    public Builder truncateFrom(long seq) {
      Checks.requirePositive("step.truncateFrom", seq);
      requireUnset("step.truncateFrom", truncateFrom.isPresent() ? truncateFrom : null);
      truncateFrom = OptionalLong.of(seq);
      return this;
    }

    /** Appends {@code event} after the events added so far. */
    public Builder event(NewEvent event) {
      events.add(Checks.requireNonNull("step.event", event));
      return this;
    }

    /** Appends {@code newEvents}, in order, after the events added so far. */
    public Builder events(List<NewEvent> newEvents) {
      Checks.requireNonNull("step.events", newEvents);
      for (int i = 0; i < newEvents.size(); i++) {
        events.add(Checks.requireNonNull("step.events[" + i + "]", newEvents.get(i)));
      }
      return this;
    }

    /** Registers a pending tool call of the step's session, with its deadline and requesting event if it has them. */
    public Builder registerToolCall(ToolCallWrite call) {
      Checks.requireNonNull("step.toolCall", call);
      requireSameSession("step.toolCall.sessionId", call.sessionId(), sessionId);
      toolCalls.add(call);
      return this;
    }

    /** Resolves the session's pending call {@code toolCallId} to {@code status} with {@code result}. */
    public Builder resolve(String toolCallId, ToolCallStatus status, Json result) {
      resolutions.add(new ToolCallResolution(toolCallId, status, result));
      return this;
    }

    /** Sets the deadline of the session's call {@code toolCallId} to {@code deadline}. */
    public Builder expireAt(String toolCallId, Instant deadline) {
      deadlines.add(DeadlineChange.set(toolCallId, deadline));
      return this;
    }

    /** Removes the deadline of the session's call {@code toolCallId}. */
    public Builder cancelDeadline(String toolCallId) {
      deadlines.add(DeadlineChange.cancel(toolCallId));
      return this;
    }

    /** Stores {@code newSummary} for the session. */
    public Builder summary(NewSummary newSummary) {
      Checks.requireNonNull("step.summary", newSummary);
      requireUnset("step.summary", summary);
      summary = newSummary;
      return this;
    }

    /** Puts {@code data} under the session checkpoint {@code name}. */
    public Builder putCheckpoint(String name, byte[] data) {
      checkpoints.add(CheckpointChange.put(name, data));
      return this;
    }

    /** Deletes the session checkpoint {@code name}. */
    public Builder deleteCheckpoint(String name) {
      checkpoints.add(CheckpointChange.delete(name));
      return this;
    }

    /** Commits the step only if the log ends at {@code seq} before it (0 = empty log); see {@link Step}. */
    public Builder expectLastSeq(long seq) {
      Checks.requireNonNegative("step.expectedLastSeq", seq);
      requireUnset("step.expectedLastSeq", expectedLastSeq.isPresent() ? expectedLastSeq : null);
      expectedLastSeq = OptionalLong.of(seq);
      return this;
    }

    /**
     * Commits the step only if {@code token} is the session's current fencing token ({@link Sessions#claim});
     * otherwise nothing is stored and the commit fails with {@link FencedWriterException}. See {@link Step}.
     */
    public Builder fence(long token) {
      Checks.requirePositive("step.fence", token);
      requireUnset("step.fence", fence.isPresent() ? fence : null);
      fence = OptionalLong.of(token);
      return this;
    }

    /** Like {@link #fence(long)} with the claim's token; the claim must be of the step's session. */
    public Builder fence(WriterClaim claim) {
      Checks.requireNonNull("step.fence", claim);
      requireSameSession("step.fence.sessionId", claim.sessionId(), sessionId);
      return fence(claim.token());
    }

    /**
     * The step as built so far.
     *
     * @throws InvalidArgumentException if two members name the same tool call or checkpoint, or events are too many
     * @throws DuplicateEventException  if two different events share an id
     */
    public Step build() {
      return new Step(sessionId, Optional.ofNullable(sessionWithMetadata()), Optional.ofNullable(run), truncateFrom,
          events, toolCalls, resolutions, deadlines, Optional.ofNullable(summary), checkpoints, expectedLastSeq,
          Optional.ofNullable(modelCall), fence);
    }

    /** The session upsert with the merged metadata patch folded in; {@code null} when there is neither. */
    private SessionWrite sessionWithMetadata() {
      if (metadata.isEmpty()) {
        return session;
      }
      return (session == null ? SessionWrite.of(sessionId) : session).withMetadata(metadata);
    }

    private static void requireUnset(String field, Object current) {
      if (current != null) {
        throw new InvalidArgumentException(field, "already set to " + current);
      }
    }
  }
}
