package dev.sessionstore.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;

/**
 * The PostgreSQL dialect's SQLState table, as a table: which failures are conflicts, bad values, limits, retried
 * rollbacks, lost connections, transient or broken backends. {@link SqlStateTranslationTest} produces the states for
 * real and checks the exceptions callers get.
 */
class SqlFailureClassificationTest {

  private final PostgresDialect dialect = new PostgresDialect();

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
      "23505, UNIQUE_VIOLATION",
      "23503, INTEGRITY_VIOLATION",
      "23P01, INTEGRITY_VIOLATION",
      "23502, INVALID_VALUE",
      "23514, INVALID_VALUE",
      "22001, INVALID_VALUE",
      "22003, INVALID_VALUE",
      "22P02, INVALID_VALUE",
      "22P05, INVALID_VALUE",
      "54000, LIMIT_EXCEEDED",
      "54023, LIMIT_EXCEEDED",
      "40001, TRANSACTION_ROLLBACK",
      "40P01, TRANSACTION_ROLLBACK",
      "08000, CONNECTION",
      "08001, CONNECTION",
      "08003, CONNECTION",
      "08006, CONNECTION",
      "08P01, CONNECTION",
      "57P01, CONNECTION",
      "57P02, CONNECTION",
      "57P03, CONNECTION",
      "57P05, CONNECTION",
      "25P03, CONNECTION",
      "57014, TRANSIENT",
      "55P03, TRANSIENT",
      "53000, TRANSIENT",
      "53100, TRANSIENT",
      "53200, TRANSIENT",
      "53300, TRANSIENT",
      "25006, TRANSIENT",
      "58030, TRANSIENT",
      "3D000, BACKEND",
      "28P01, BACKEND",
      "42501, BACKEND",
      "42P01, BACKEND",
      "42601, BACKEND",
      "0A000, BACKEND",
      "XX000, BACKEND"})
  @DisplayName("Each SQLState maps to its kind of failure, keeping the state")
  void sqlStates(String state, SqlFailure.Kind kind) {
    SqlFailure failure = dialect.classify(new SQLException("failed", state));

    assertThat(failure.kind()).isEqualTo(kind);
    assertThat(failure.sqlState()).isEqualTo(state);
    assertThat(failure.kind().retryable()).as("retryable")
        .isEqualTo(Set.of(SqlFailure.Kind.TRANSACTION_ROLLBACK, SqlFailure.Kind.CONNECTION, SqlFailure.Kind.TRANSIENT)
            .contains(kind));
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
