/**
 * The JDBC adapter of session-store: {@link dev.sessionstore.jdbc.JdbcSessionStore}, the store, and its builder.
 * The database is told by the data source's connections; PostgreSQL is supported. Everything else lives in
 * {@code internal} and is not API.
 */
package dev.sessionstore.jdbc;
