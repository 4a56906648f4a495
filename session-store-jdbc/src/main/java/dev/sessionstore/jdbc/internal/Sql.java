package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Json;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Runs parameterized statements on a connection. Every value reaches the database as a bind parameter, never as
 * SQL text: strings, numbers, booleans, {@link Instant} (as {@code timestamptz}), {@link Json} (its exact
 * {@link Json#text()}; the SQL casts it with {@link Dialect#jsonParameter()}), {@code byte[]}, {@link Array} and
 * {@code null}.
 */
final class Sql {

  private Sql() {
  }

  static PreparedStatement prepare(Connection connection, String sql, Object... parameters) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    try {
      for (int i = 0; i < parameters.length; i++) {
        bind(statement, i + 1, parameters[i]);
      }
      return statement;
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
  }

  /** Every row the query returns, mapped, as an unmodifiable list. */
  static <T> List<T> list(Connection connection, String sql, RowMapper<T> mapper, Object... parameters)
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
  static <T> Optional<T> first(Connection connection, String sql, RowMapper<T> mapper, Object... parameters)
      throws SQLException {
    try (PreparedStatement statement = prepare(connection, sql, parameters);
         ResultSet rows = statement.executeQuery()) {
      return rows.next() ? Optional.of(mapper.map(rows)) : Optional.empty();
    }
  }

  /** Runs an insert, update or delete without {@code RETURNING}; returns the row count. */
  static int update(Connection connection, String sql, Object... parameters) throws SQLException {
    try (PreparedStatement statement = prepare(connection, sql, parameters)) {
      return statement.executeUpdate();
    }
  }

  /** A {@code text[]} parameter. */
  static Array textArray(Connection connection, Collection<String> values) throws SQLException {
    return connection.createArrayOf("text", values.toArray(new String[0]));
  }

  /** A {@code timestamptz} column, or {@code null}. */
  static Instant instant(ResultSet row, String column) throws SQLException {
    OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  private static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
    if (value instanceof Instant instant) {
      statement.setObject(index, instant.atOffset(ZoneOffset.UTC));
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
