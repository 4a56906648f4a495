package dev.sessionstore.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * A data source that shows a {@link Watcher} every prepared statement its connections are about to execute, on the
 * connection that executes it, with the values bound to it; the statement runs after the watcher returns. A
 * watcher can so run its own statement (an {@code EXPLAIN} of the same text with the same values) in exactly the
 * state the store's statement meets. Plain statements ({@code createStatement().execute(sql)}: transaction control,
 * pragmas) are shown too, without values. Everything else goes to the wrapped objects unchanged.
 */
final class WatchedDataSource {

  private static final Set<String> EXECUTIONS = Set.of("execute", "executeQuery", "executeUpdate",
      "executeLargeUpdate");

  /** Sees each statement before it runs. */
  @FunctionalInterface
  interface Watcher {
    /**
     * Called before {@code sql} runs on {@code connection}; {@code values} binds the same values to another
     * statement. A prepared statement run as a JDBC batch is shown once per parameter set, before the batch runs.
     */
    void beforeExecute(Connection connection, String sql, Values values, boolean prepared) throws SQLException;
  }

  /** The values bound to a prepared statement, in the order they were bound. */
  static final class Values {
    private final List<Object[]> calls = new ArrayList<>();
    private final List<Method> methods = new ArrayList<>();

    /** Binds the same values to {@code statement}, by the same setter calls. */
    void bindTo(PreparedStatement statement) throws SQLException {
      for (int i = 0; i < calls.size(); i++) {
        try {
          methods.get(i).invoke(statement, calls.get(i));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
          if (e.getCause() instanceof SQLException sql) {
            throw sql;
          }
          throw new IllegalStateException(e.getCause());
        }
      }
    }

    private Values copy() {
      Values copy = new Values();
      copy.calls.addAll(calls);
      copy.methods.addAll(methods);
      return copy;
    }
  }

  private WatchedDataSource() {
  }

  /** {@code dataSource}, its statements shown to {@code watcher}. */
  static DataSource wrap(DataSource dataSource, Watcher watcher) {
    return proxy(DataSource.class, dataSource, (target, method, arguments) -> {
      Object result = method.invoke(target, arguments);
      return result instanceof Connection connection ? watchConnection(connection, watcher) : result;
    });
  }

  private static Connection watchConnection(Connection connection, Watcher watcher) {
    return proxy(Connection.class, connection, (target, method, arguments) -> {
      Object result = method.invoke(target, arguments);
      if (result instanceof PreparedStatement statement && method.getName().startsWith("prepare")) {
        return watchPrepared(connection, (String) arguments[0], statement, watcher);
      }
      if (result instanceof Statement statement && method.getName().equals("createStatement")) {
        return watchPlain(connection, statement, watcher);
      }
      return result;
    });
  }

  private static PreparedStatement watchPrepared(Connection connection, String sql, PreparedStatement statement,
      Watcher watcher) {
    Values[] values = {new Values()};
    List<Values> batch = new ArrayList<>();
    return proxy(PreparedStatement.class, statement, (target, method, arguments) -> {
      String name = method.getName();
      if (name.startsWith("set") && arguments != null && arguments.length >= 2 && arguments[0] instanceof Integer) {
        values[0].methods.add(method);
        values[0].calls.add(arguments.clone());
      } else if (name.equals("clearParameters")) {
        values[0] = new Values();
      } else if (name.equals("addBatch") && (arguments == null || arguments.length == 0)) {
        batch.add(values[0].copy());
      } else if (name.equals("executeBatch") || name.equals("executeLargeBatch")) {
        for (Values each : batch) {
          watcher.beforeExecute(connection, sql, each, true);
        }
        batch.clear();
      } else if (EXECUTIONS.contains(name) && (arguments == null || arguments.length == 0)) {
        watcher.beforeExecute(connection, sql, values[0], true);
      }
      return method.invoke(target, arguments);
    });
  }

  private static Statement watchPlain(Connection connection, Statement statement, Watcher watcher) {
    return proxy(Statement.class, statement, (target, method, arguments) -> {
      if (EXECUTIONS.contains(method.getName()) && arguments != null && arguments[0] instanceof String sql) {
        watcher.beforeExecute(connection, sql, new Values(), false);
      }
      return method.invoke(target, arguments);
    });
  }

  @FunctionalInterface
  private interface Handler<T> {
    Object handle(T target, Method method, Object[] arguments) throws Throwable;
  }

  private static <T> T proxy(Class<T> type, T target, Handler<T> handler) {
    return type.cast(Proxy.newProxyInstance(WatchedDataSource.class.getClassLoader(), new Class<?>[] {type},
        (proxy, method, arguments) -> {
          try {
            return handler.handle(target, method, arguments);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        }));
  }
}
