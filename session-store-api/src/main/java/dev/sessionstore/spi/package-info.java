/**
 * Support for adapter authors: the checks and rules every {@link dev.sessionstore.SessionStore} implementation
 * shares, kept here once so that adapters agree on them. Application code does not need this package.
 *
 * <h2>The validating layer</h2>
 * An adapter's builder returns its store wrapped by {@link dev.sessionstore.spi.ValidatingSessionStore#wrap}, which
 * applies the argument rules ({@link dev.sessionstore.spi.Arguments}) and the closed-store rule of every operation
 * before the adapter is called. In return, the adapter may rely on this contract and need not check again:
 * <ul>
 *   <li>every operation is called only while the store is open; the layer throws
 *       {@link dev.sessionstore.StoreClosedException} for the adapter;</li>
 *   <li>every id, name, tenant and agent id passed as a parameter is a valid key ({@code Arguments.requireKey});
 *       every write record, query, event, summary, model call, checkpoint key, step and status is non-null (records
 *       check their own fields when built); seqs, limits and bounds are in range ({@code fromSeq}, {@code atSeq},
 *       {@code summaryToSeq} at least 1, expected seqs at least 0); timeouts and ages are non-null and not negative;
 *       a resolution's status is one a caller may resolve to;</li>
 *   <li>a batch of events is an unmodifiable list of at most {@link dev.sessionstore.Limits#MAX_BATCH_SIZE} non-null
 *       events, a metadata patch an unmodifiable, valid patch, checkpoint bytes at most
 *       {@link dev.sessionstore.Limits#MAX_CHECKPOINT_BYTES}, a deadline truncated to microseconds, and a session
 *       listing's cursor one {@link dev.sessionstore.spi.SessionCursor#decode} accepts, and a session archive or
 *       global checkpoint to import one {@link dev.sessionstore.spi.ArchiveRules} accepts for the adapter's
 *       capabilities.</li>
 * </ul>
 * What only the adapter can know stays the adapter's: state-dependent rules (a summary past the log's end, an
 * unknown session to fork), and what its backend cannot store (a timestamp outside a database's range). In return,
 * the adapter's {@code close()} must release every blocked {@link dev.sessionstore.EventLog#await} and
 * {@link dev.sessionstore.ToolCalls#await} promptly (returning what it has, or failing); the layer turns such a
 * release into {@link dev.sessionstore.StoreClosedException}. The layer calls the adapter's {@code close()} once.
 *
 * <h2>The shared rules</h2>
 * Duplicate ids and batches ({@link dev.sessionstore.spi.EventBatch}, {@link dev.sessionstore.spi.StepLog}), which
 * events a query selects ({@link dev.sessionstore.spi.EventFilter}) and how they become a page with its cursor
 * ({@link dev.sessionstore.spi.EventPaging}), session cursors ({@link dev.sessionstore.spi.SessionCursor}), upserts
 * ({@link dev.sessionstore.spi.Upserts}), tool-call transitions and when a call is due
 * ({@link dev.sessionstore.spi.ToolCallTransitions}, {@link dev.sessionstore.spi.Expiry}), what a fork inherits
 * ({@link dev.sessionstore.spi.ForkRule}), which sessions resume eagerly ({@link dev.sessionstore.spi.ResumeRule}),
 * timeouts and deadlines ({@link dev.sessionstore.spi.Timeouts}), what an archive must hold to be imported
 * ({@link dev.sessionstore.spi.ArchiveRules}), the order of ids
 * ({@link dev.sessionstore.spi.IdOrder}), and documents read back from where the store wrote them
 * ({@link dev.sessionstore.spi.StoredJson}).
 */
package dev.sessionstore.spi;
