/**
 * The Apache Cassandra adapter: {@link dev.sessionstore.cassandra.CassandraSessionStore}.
 */
package dev.sessionstore.cassandra;
