package dev.sessionstore.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;

/** Work done with one borrowed connection, inside or outside a transaction (see {@link Database}). */
@FunctionalInterface
interface SqlWork<T> {

  T run(Connection connection) throws SQLException;
}
