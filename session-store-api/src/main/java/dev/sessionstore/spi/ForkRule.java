package dev.sessionstore.spi;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import java.time.Instant;

/**
 * What a fork at {@code atSeq} takes from its parent (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#11">11</a>), decided once for every
 * adapter and documented on {@link dev.sessionstore.Sessions#fork(String, long)}: events {@code 1..atSeq}; summaries
 * with {@code toSeq <= atSeq}; runs named by a prefix event; tool calls whose requesting event is in the prefix, in
 * their current state; the session's checkpoints; its agent, tenant, status, settings and metadata, but not its name
 * nor its expiry.
 * Copies keep every field (timestamps included) but the session id.
 */
public final class ForkRule {

  private ForkRule() {
  }

  /**
   * The fork's session record, created at {@code now}: the parent's agent, tenant, status, settings and metadata, no
   * name (names are unique), no expiry (a fork is a new conversation; its writer sets one if it wants one),
   * {@code parentId@atSeq} as its origin and {@code atSeq} as its last seq. An adapter that builds the record in its
   * backend, from the parent's stored row in the statement that copies the fork (the JDBC adapter does), takes
   * exactly these fields from that row and binds the rest; it changes with this rule.
   */
  public static Session session(Session parent, String forkId, long atSeq, Instant now) {
    return new Session(forkId, null, parent.tenant(), parent.agentId(), parent.status(), parent.settings(),
        parent.metadata(), new ForkOrigin(parent.id(), atSeq), now, now, null, atSeq);
  }

  /** Whether the fork takes the parent's summary. */
  public static boolean takesSummary(Summary summary, long atSeq) {
    return summary.toSeq() <= atSeq;
  }

  /**
   * Whether the fork takes the parent's run or tool call anchored at {@code seq}: a run at the seq of the first event
   * that names it, a tool call at the seq of the event that requested it, and either at 0 when the parent holds no
   * such event. Adapters find that seq by index (never by scanning the prefix), so that a fork's cost does not grow
   * with the log.
   */
  public static boolean isInPrefix(long seq, long atSeq) {
    return seq > 0 && seq <= atSeq;
  }

  /** {@code event} as the fork holds it: same seq and content. */
  public static Event copy(Event event, String forkId) {
    return new Event(forkId, event.seq(), event.id(), event.type(), event.runId(), event.agentId(), event.parentId(),
        event.payload(), event.timestamp());
  }

  /** {@code summary} as the fork holds it. */
  public static Summary copy(Summary summary, String forkId) {
    return new Summary(forkId, summary.fromSeq(), summary.toSeq(), summary.content(), summary.version(),
        summary.createdAt());
  }

  /** {@code run} as the fork holds it. */
  public static Run copy(Run run, String forkId) {
    return new Run(run.id(), forkId, run.status(), run.usage(), run.error(), run.createdAt(), run.updatedAt());
  }

  /** {@code call} as the fork holds it, in its current state: a pending call stays pending, with its deadline. */
  public static ToolCall copy(ToolCall call, String forkId) {
    return new ToolCall(call.id(), forkId, call.runId(), call.requestEventId(), call.toolName(), call.arguments(),
        call.status(), call.result(), call.deadline(), call.createdAt(), call.updatedAt());
  }

  /** The session checkpoint {@code checkpoint} as the fork holds it. */
  public static Checkpoint copy(Checkpoint checkpoint, String forkId) {
    return new Checkpoint(CheckpointKey.of(forkId, checkpoint.key().name()), checkpoint.data(),
        checkpoint.updatedAt());
  }
}
