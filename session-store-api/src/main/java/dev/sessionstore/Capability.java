package dev.sessionstore;

/**
 * Optional parts of the contract. Every store supports sessions, runs, the event log (appends, batches, idempotency,
 * expected seq, paged reads), {@link SessionStore#commit} of steps using only supported members, and listing; a store
 * lists what else it supports in {@link SessionStore#capabilities()}, and the conformance kit verifies every capability
 * declared.
 *
 * <p><b>A capability the store lacks</b> is refused, never half done: its aggregate's accessor, every operation that
 * needs it and every step holding a member that needs it fail with {@link UnsupportedCapabilityException} naming it,
 * and nothing is stored (a step is refused whole). {@link #CROSS_PROCESS_WAKEUP} and {@link #DURABLE_DEADLINES} are
 * qualities of {@link #WAITING_READS} and {@link #DEADLINES} that no call asks for, and {@link #STORED_VALUE_REWRITE}
 * is a hook that {@link SessionStore#unwrap} does not hand out when absent. A declared capability implies the one it
 * qualifies: {@link #DEADLINES} needs {@link #TOOL_CALLS}, {@link #DURABLE_DEADLINES} needs {@link #DEADLINES}, and
 * {@link #CROSS_PROCESS_WAKEUP} needs {@link #WAITING_READS}. The conformance kit checks both sides.
 */
public enum Capability {
  /** {@link EventLog#await}: reads that wait for appends (guarantee 8). */
  WAITING_READS,
  /**
   * Waiting reads wake on appends, and {@link ToolCalls#await} on resolutions, made by other processes sharing the
   * backend.
   */
  CROSS_PROCESS_WAKEUP,
  /** {@link ToolCalls}: pending calls, compare-and-set resolution and waiting for a resolution (guarantee 10). */
  TOOL_CALLS,
  /** Tool-call deadlines held by the store (guarantee 10). */
  DEADLINES,
  /** Deadlines survive the process that set them (kept in the backend, swept by any instance). */
  DURABLE_DEADLINES,
  /** {@link Summaries}: summaries, revival and chapters (guarantee 9). */
  SUMMARIES,
  /** {@link Sessions#fork}: forks (guarantee 11). */
  FORKS,
  /** {@link EventLog#truncate}: truncation (guarantee 12). */
  TRUNCATION,
  /** {@link Checkpoints}: checkpoints and turn state. */
  CHECKPOINTS,
  /** {@link ModelCallAudit}: the model-call audit. */
  MODEL_CALL_AUDIT,
  /**
   * Tenant keys on sessions ({@link SessionWrite#withTenant}), listing by tenant ({@link SessionQuery#tenant(String)}) and
   * {@link Sessions#deleteByTenant}.
   */
  TENANTS,
  /** {@link Archives}: lossless export and import of whole sessions and of global checkpoints. */
  ARCHIVES,
  /**
   * {@link Sessions#claim}: writer fencing. Claims hand out fencing tokens that only grow per session id, and a step
   * carrying a token that is not the session's current one ({@link Step#fence}) stores nothing and fails with
   * {@link FencedWriterException}; the check is atomic with the step's writes.
   */
  WRITER_FENCING,
  /**
   * {@link SessionStore#retention()}: idle sessions, old chapters and old audit rows removed by a
   * {@link RetentionPolicy}, on demand and on a schedule the store owns; forks keep what they show.
   */
  RETENTION,
  /**
   * The store hands out {@code dev.sessionstore.spi.StoredValues} through {@link SessionStore#unwrap}: a paged scan
   * of every stored payload-bearing value and a compare-and-set rewrite of one, for decorators that move values to
   * a new representation in place (re-encryption under a new key). The in-memory, JDBC (PostgreSQL, SQLite) and
   * Cassandra stores declare it.
   */
  STORED_VALUE_REWRITE,
  /**
   * {@link SessionStore#search()}: events found by the words of their payload, through an index the store keeps with
   * the events (guarantee 21). A store that keeps payloads it cannot read (encrypted at rest) lacks it.
   */
  SEARCH
}
