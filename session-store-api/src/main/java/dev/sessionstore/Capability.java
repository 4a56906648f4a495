package dev.sessionstore;

/**
 * Optional parts of the contract. Every store supports sessions, runs, the event log (appends, batches, idempotency,
 * expected seq, paged reads), {@link SessionStore#commit} of steps using only supported members, and listing; a store lists what else it supports in
 * {@link SessionStore#capabilities()}, and the conformance kit verifies every capability declared.
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
  /** Tenant keys on sessions, listing by tenant and {@link Sessions#deleteByTenant}. */
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
  STORED_VALUE_REWRITE
}
