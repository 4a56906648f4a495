/**
 * The Cassandra adapter's implementation; not an API. Build a store with
 * {@link dev.sessionstore.cassandra.CassandraSessionStore#builder()}; the data model and how each structure stays
 * consistent are described there.
 */
package dev.sessionstore.cassandra.internal;
