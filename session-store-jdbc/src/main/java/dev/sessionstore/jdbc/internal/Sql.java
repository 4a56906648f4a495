package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Json;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Runs parameterized statements on a connection. Every value reaches the database as a bind parameter, never as
 * SQL text: strings, numbers, booleans, {@link Instant} (as the dialect binds timestamps), {@link Json} (its exact
 * {@link Json#text()}; the SQL converts it with {@link Dialect#jsonParameter()}), {@code byte[]}, {@link Array} and
 * {@code null}. Thread-safe.
 */
final class Sql {

  private final Dialect dialect;

  Sql(Dialect dialect) {
    this.dialect = dialect;
  }

  PreparedStatement prepare(Connection connection, String sql, Object... parameters) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    try {
      bindAll(statement, parameters);
      return statement;
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
  }

  /** Every row the query returns, mapped, as an unmodifiable list. */
  <T> List<T> list(Connection connection, String sql, RowMapper<T> mapper, Object... parameters)
      throws SQLException {
    try (PreparedStatement statement = prepare(connection, sql, parameters);
         ResultSet rows = statement.executeQuery()) {
      List<T> result = new ArrayList<>();
      while (rows.next()) {
        result.add(mapper.map(rows));
      }
      return Collections.unmodifiableList(result);
    }
  }

  /** The first row the query returns, mapped, or empty. */
  <T> Optional<T> first(Connection connection, String sql, RowMapper<T> mapper, Object... parameters)
      throws SQLException {
    try (PreparedStatement statement = prepare(connection, sql, parameters);
         ResultSet rows = statement.executeQuery()) {
      return rows.next() ? Optional.of(mapper.map(rows)) : Optional.empty();
    }
  }

  /** Runs an insert, update or delete without {@code RETURNING}; returns the row count. */
  int update(Connection connection, String sql, Object... parameters) throws SQLException {
    try (PreparedStatement statement = prepare(connection, sql, parameters)) {
      return statement.executeUpdate();
    }
  }

  /**
   * Runs one insert, update or delete once per parameter set, as one JDBC batch; returns each one's row count, in
   * order.
   */
  int[] updateEach(Connection connection, String sql, List<Object[]> parameterSets) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (Object[] parameters : parameterSets) {
        bindAll(statement, parameters);
        statement.addBatch();
      }
      return statement.executeBatch();
    }
  }

  private void bindAll(PreparedStatement statement, Object[] parameters) throws SQLException {
    for (int i = 0; i < parameters.length; i++) {
      bind(statement, i + 1, parameters[i]);
    }
  }

  private void bind(PreparedStatement statement, int index, Object value) throws SQLException {
    if (value instanceof Instant instant) {
      dialect.bindInstant(statement, index, instant);
    } else if (value instanceof Json json) {
      statement.setString(index, json.text());
    } else if (value instanceof String text) {
      statement.setString(index, text);
    } else if (value instanceof Long number) {
      statement.setLong(index, number);
    } else if (value instanceof Integer number) {
      statement.setInt(index, number);
    } else if (value instanceof Boolean flag) {
      statement.setBoolean(index, flag);
    } else if (value instanceof byte[] bytes) {
      statement.setBytes(index, bytes);
    } else if (value instanceof Array array) {
      statement.setArray(index, array);
    } else if (value == null) {
      statement.setObject(index, null);
    } else {
      throw new IllegalArgumentException("no SQL binding for " + value.getClass().getName());
    }
  }
}
