package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import dev.sessionstore.RetentionPolicy;
import java.time.Clock;
import java.time.Duration;

/**
 * What a store is built with: the driver session (its own or the caller's), the keyspace and namespace it writes to,
 * the consistency levels, and its timings.
 *
 * @param session           the driver session every statement runs on
 * @param ownsSession       whether closing the store closes {@code session}
 * @param keyspace          the keyspace holding the store's tables
 * @param namespace         the store's namespace inside the keyspace: the first part of every partition key
 * @param replication       the keyspace's replication, a CQL map literal, used when the store creates it
 * @param createSchema      whether the store creates its keyspace and tables when missing
 * @param write             the consistency of writes (the commit of a conditional batch)
 * @param serial            the consistency of conditions and of reads that settle a doubt
 * @param read              the consistency of reads
 * @param clock             the clock records are stamped with
 * @param retryTimeout      how long a write may retry lost races and settle an unknown outcome before giving up
 * @param pollInterval      how often a waiting read looks for appends of other processes
 * @param maxMutationBytes  the largest conditional batch the store writes; a larger one is rejected unwritten
 * @param sweepInterval     how often the store looks for tool-call deadlines that are due
 * @param modelCallAudit    whether the store records the model-call audit
 * @param retentionPolicy   the policy the store applies on schedule; null for none
 * @param retentionInterval how often the store applies {@code retentionPolicy}; null for no schedule
 */
public record StoreSettings(
    CqlSession session,
    boolean ownsSession,
    String keyspace,
    String namespace,
    String replication,
    boolean createSchema,
    ConsistencyLevel write,
    ConsistencyLevel serial,
    ConsistencyLevel read,
    Clock clock,
    Duration retryTimeout,
    Duration pollInterval,
    long maxMutationBytes,
    Duration sweepInterval,
    boolean modelCallAudit,
    RetentionPolicy retentionPolicy,
    Duration retentionInterval) {
}
