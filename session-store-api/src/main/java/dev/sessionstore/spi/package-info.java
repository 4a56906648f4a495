/**
 * The adapter SPI: what an author of a {@link dev.sessionstore.SessionStore} implementation (an adapter) builds on,
 * kept here once so that adapters agree on the checks, the rules and the words of their errors. Application code
 * does not need this package: the user API is {@code dev.sessionstore}, and it does not refer to this package (a test
 * of session-store-api fails if any of its classes does); this package depends on the API, never the reverse. The
 * guarantees an adapter owes are listed, numbered, in <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html">the guarantees</a> ({@code docs/guarantees.md} of the repository); the conformance
 * kit ({@code session-store-conformance}) tests them.
 *
 * <h2>What each class is for</h2>
 * <ul>
 *   <li>{@link dev.sessionstore.spi.ValidatingSessionStore}: the wrapper every adapter's builder returns (below);
 *       {@code Validating*} are its per-aggregate parts, and {@link dev.sessionstore.spi.OpenGate} its closed-store
 *       rule.</li>
 *   <li>{@link dev.sessionstore.spi.ForwardingSessionStore}: the base of a decorator over any store (metrics,
 *       encryption, ...): forwards the store and every aggregate ({@code Forwarding*}, one per aggregate interface),
 *       with an {@link dev.sessionstore.spi.Interception} around every operation and a {@code decorate} hook per
 *       aggregate; a test fails when an interface gains a method its forwarder does not forward.</li>
 *   <li>{@link dev.sessionstore.spi.Arguments}: the argument checks, the same code the model records run on their own
 *       members, for records and parameters an adapter builds or receives itself.</li>
 *   <li>{@link dev.sessionstore.spi.Failures}: the exceptions every adapter raises for the same cause, worded once
 *       (not found, conflicts, ...). Build those errors here, never with your own words: the kit's {@code Wording}
 *       group compares messages across adapters.</li>
 *   <li>{@link dev.sessionstore.spi.EventBatch}, {@link dev.sessionstore.spi.StepLog}: appends and steps, with the
 *       duplicate-id rule; {@link dev.sessionstore.spi.EventFilter}, {@link dev.sessionstore.spi.EventPaging}:
 *       reads and pages; {@link dev.sessionstore.spi.SessionCursor}: session listing cursors;
 *       {@link dev.sessionstore.spi.Upserts}: session and run upserts;
 *       {@link dev.sessionstore.spi.ToolCallTransitions}, {@link dev.sessionstore.spi.Expiry}: tool calls and
 *       deadlines; {@link dev.sessionstore.spi.ForkRule}: what a fork copies;
 *       {@link dev.sessionstore.spi.ResumeRule}: eager resumption; {@link dev.sessionstore.spi.Timeouts}: waits;
 *       {@link dev.sessionstore.spi.ArchiveRules}: imports; {@link dev.sessionstore.spi.RetentionRules}: what a
 *       retention policy removes; {@link dev.sessionstore.spi.IdOrder}: the order of ids;
 *       {@link dev.sessionstore.spi.StoredJson}: documents read back from where the store wrote them.</li>
 * </ul>
 * Where a rule is also the user's (the argument checks, the id order, the resume rule, a stored document), the code
 * lives package-private in the API package and this package calls it through {@code dev.sessionstore.internal
 * .ApiAccess} (a door the API package installs once, in the manner of the JDK's {@code SharedSecrets}); there is one
 * copy of each rule, and the user's view holds no member meant for adapters.
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
 *       capabilities;</li>
 *   <li>nothing that needs a capability the adapter does not declare reaches it: an aggregate accessor the adapter
 *       refuses, an operation that needs an undeclared capability (a fork, a truncation, a waiting read, a claim, a
 *       tenant, a deadline) and a step holding such a member all fail with
 *       {@link dev.sessionstore.UnsupportedCapabilityException} before the adapter is called. An adapter without a
 *       capability throws that exception from the aggregate's accessor and may leave the rest to the layer.</li>
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
 * timeouts and deadlines ({@link dev.sessionstore.spi.Timeouts}), how a waiting read outlives an unreachable backend
 * until its timeout ({@link dev.sessionstore.spi.WaitOutages}), what an archive must hold to be imported
 * ({@link dev.sessionstore.spi.ArchiveRules}), what a retention policy removes
 * ({@link dev.sessionstore.spi.RetentionRules}), the order of ids
 * ({@link dev.sessionstore.spi.IdOrder}), and documents read back from where the store wrote them
 * ({@link dev.sessionstore.spi.StoredJson}).
 *
 * <h2>With the conformance kit</h2>
 * Wrap the adapter with {@code ValidatingSessionStore.wrap}, build every shared failure with {@code Failures}, apply
 * the shared rules above instead of writing your own, and extend {@code SessionStoreConformance} (in
 * session-store-conformance) with a factory that returns a fresh, wrapped store: the kit's groups then check the
 * guarantees, its {@code ArgumentRules} and {@code ClosedStore} groups the wrapper's rules, its {@code Wording} group
 * the words. The root README's "Write an adapter" section walks through it.
 */
package dev.sessionstore.spi;
