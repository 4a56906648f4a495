/**
 * The PostgreSQL adapter of session-store: {@link dev.sessionstore.jdbc.JdbcSessionStore} and its builder. Everything
 * else lives in {@code internal} and is not API.
 */
package dev.sessionstore.jdbc;
