package dev.sessionstore.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A main write with companion writes that must commit with it: some run before it (a row it references), some
 * after (rows that reference it). Where the dialect {@linkplain Dialect#chainsWrites() chains writes} the whole is
 * one statement, the companions in a {@code WITH} clause ahead of the main write, all in one snapshot; elsewhere
 * the writes run one by one in order, in the caller's transaction or, under auto-commit, in one of their own. Each
 * companion is a complete statement that reads only committed rows and the parameters it is given, so that both
 * forms write the same. The result is always the main write's: its row count, or the rows it returns.
 *
 * <p>Built once per statement shape; thread-safe.
 */
final class WriteChain {

  private final Dialect dialect;
  private final Sql sql;
  private final boolean chained;
  private final List<String> before;
  private final String main;
  private final List<String> after;
  private final String statement;

  private WriteChain(Dialect dialect, List<String> before, String main, List<String> after) {
    this.dialect = dialect;
    this.sql = new Sql(dialect);
    this.chained = dialect.chainsWrites();
    this.before = List.copyOf(before);
    this.main = main;
    this.after = List.copyOf(after);
    List<String> companions = new ArrayList<>(before);
    companions.addAll(after);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < companions.size(); i++) {
      text.append(i == 0 ? "WITH " : ", ").append("chained_").append(i + 1).append(" AS (")
          .append(companions.get(i)).append(')');
    }
    this.statement = text.append(companions.isEmpty() ? "" : " ").append(main).toString();
  }

  /** {@code main}, preceded by {@code before} (the writes it depends on, in order). */
  static WriteChain before(Dialect dialect, List<String> before, String main) {
    return new WriteChain(dialect, before, main, List.of());
  }

  /** {@code main}, followed by {@code after} (the writes that depend on it, in order). */
  static WriteChain after(Dialect dialect, String main, List<String> after) {
    return new WriteChain(dialect, List.of(), main, after);
  }

  /**
   * Runs the chain and returns the main write's row count.
   *
   * @param parameters one array per write, in the order before, main, after
   */
  int update(Connection connection, Object[]... parameters) throws SQLException {
    if (chained) {
      return sql.update(connection, statement, flatten(parameters));
    }
    return inOrder(connection, parameters, () -> sql.update(connection, main, parameters[before.size()]),
        count -> true);
  }

  /**
   * Runs the chain, whose main write returns rows ({@code RETURNING}), and returns its first row, mapped; the
   * writes after it run only if it returned one.
   *
   * @param parameters one array per write, in the order before, main, after
   */
  <T> Optional<T> first(Connection connection, RowMapper<T> mapper, Object[]... parameters) throws SQLException {
    if (chained) {
      return sql.first(connection, statement, mapper, flatten(parameters));
    }
    return inOrder(connection, parameters, () -> sql.first(connection, main, mapper, parameters[before.size()]),
        Optional::isPresent);
  }

  /** Runs the writes one by one; those after the main write only if {@code wrote} says it wrote. */
  private <T> T inOrder(Connection connection, Object[][] parameters, MainWrite<T> mainWrite, Predicate<T> wrote)
      throws SQLException {
    requireOnePerWrite(parameters);
    boolean autoCommit = connection.getAutoCommit();
    if (autoCommit) {
      connection.setAutoCommit(false);
    }
    try {
      if (autoCommit) {
        dialect.beginWrites(connection);
      }
      for (int i = 0; i < before.size(); i++) {
        sql.update(connection, before.get(i), parameters[i]);
      }
      T result = mainWrite.run();
      for (int i = 0; i < after.size() && wrote.test(result); i++) {
        sql.update(connection, after.get(i), parameters[before.size() + 1 + i]);
      }
      if (autoCommit) {
        connection.commit();
      }
      return result;
    } catch (SQLException | RuntimeException e) {
      if (autoCommit) {
        connection.rollback();
      }
      throw e;
    } finally {
      if (autoCommit) {
        connection.setAutoCommit(true);
      }
    }
  }

  /** The parameters of the chained statement: the companions' in {@code WITH} order, then the main write's. */
  private Object[] flatten(Object[][] parameters) {
    requireOnePerWrite(parameters);
    List<Object> flat = new ArrayList<>();
    for (int i = 0; i < parameters.length; i++) {
      if (i != before.size()) {
        flat.addAll(Arrays.asList(parameters[i]));
      }
    }
    flat.addAll(Arrays.asList(parameters[before.size()]));
    return flat.toArray();
  }

  private void requireOnePerWrite(Object[][] parameters) {
    int writes = before.size() + 1 + after.size();
    if (parameters.length != writes) {
      throw new IllegalArgumentException(parameters.length + " parameter arrays for " + writes + " writes");
    }
  }

  private interface MainWrite<T> {
    T run() throws SQLException;
  }
}
