package dev.sessionstore.jdbc.internal;

import java.sql.ResultSet;
import java.sql.SQLException;

/** Turns the current row of a result set into a value. */
@FunctionalInterface
interface RowMapper<T> {

  T map(ResultSet row) throws SQLException;
}
