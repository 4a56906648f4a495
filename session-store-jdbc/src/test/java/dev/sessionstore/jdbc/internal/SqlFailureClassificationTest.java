package dev.sessionstore.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;

/** The PostgreSQL dialect's SQLState table: which failures are conflicts, bad values, retryable or lost connections. */
class SqlFailureClassificationTest {

  private final PostgresDialect dialect = new PostgresDialect();

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
      "23505, UNIQUE_VIOLATION",
      "40001, RETRYABLE",
      "40P01, RETRYABLE",
      "08000, CONNECTION",
      "08001, CONNECTION",
      "08003, CONNECTION",
      "08006, CONNECTION",
      "57P01, CONNECTION",
      "57P02, CONNECTION",
      "57P03, CONNECTION",
      "22001, INVALID_VALUE",
      "22P05, INVALID_VALUE",
      "3D000, BACKEND",
      "28P01, BACKEND",
      "42P01, BACKEND",
      "53100, BACKEND",
      "57014, BACKEND",
      "XX000, BACKEND"})
  @DisplayName("Each SQLState maps to its kind of failure, keeping the state")
  void sqlStates(String state, SqlFailure.Kind kind) {
    SqlFailure failure = dialect.classify(new SQLException("failed", state));

    assertThat(failure.kind()).isEqualTo(kind);
    assertThat(failure.sqlState()).isEqualTo(state);
  }

  @Test
  @DisplayName("pgjdbc's own connection errors are lost connections")
  void driverConnectionErrors() {
    assertThat(dialect.classify(new PSQLException("An I/O error occurred while sending to the backend.",
        PSQLState.CONNECTION_FAILURE, new IOException("Connection reset"))).kind())
        .isEqualTo(SqlFailure.Kind.CONNECTION);
    assertThat(dialect.classify(new PSQLException("This connection has been closed.",
        PSQLState.CONNECTION_DOES_NOT_EXIST)).kind()).isEqualTo(SqlFailure.Kind.CONNECTION);
  }

  @Test
  @DisplayName("Without a SQLState, an I/O error or a pool's connection timeout is a lost connection, else a backend"
      + " failure")
  void errorsWithoutState() {
    assertThat(dialect.classify(new PSQLException("I/O", null, new IOException("reset"))).kind())
        .isEqualTo(SqlFailure.Kind.CONNECTION);
    assertThat(dialect.classify(new SQLTransientConnectionException("pool - Connection is not available")).kind())
        .isEqualTo(SqlFailure.Kind.CONNECTION);
    assertThat(dialect.classify(new SQLException("something else")).kind()).isEqualTo(SqlFailure.Kind.BACKEND);
  }

  @Test
  @DisplayName("A pool's connection timeout that carries the database's refusal keeps its meaning")
  void poolTimeoutWithDatabaseState() {
    assertThat(dialect.classify(new SQLTransientConnectionException("pool - not available", "3D000")).kind())
        .isEqualTo(SqlFailure.Kind.BACKEND);
    assertThat(dialect.classify(new SQLTransientConnectionException("pool - not available", "08001")).kind())
        .isEqualTo(SqlFailure.Kind.CONNECTION);
  }
}
