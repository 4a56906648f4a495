/**
 * The implementation of the JDBC adapter. Not API: unsupported for direct use and may change in any release; build
 * stores with {@link dev.sessionstore.jdbc.JdbcSessionStore#builder()}.
 */
package dev.sessionstore.jdbc.internal;
