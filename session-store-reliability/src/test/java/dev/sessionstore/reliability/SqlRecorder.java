package dev.sessionstore.reliability;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * A data source that records the text of every SQL statement sent through it: the SQL given to
 * {@code prepareStatement}, {@code prepareCall} and {@code nativeSQL} of its connections, and to the
 * {@code execute…} and {@code addBatch} methods of their plain statements. Everything else, {@code unwrap} and
 * {@code isWrapperFor} included, goes to the wrapped objects unchanged.
 */
final class SqlRecorder {

  private static final Set<String> SQL_METHODS_OF_CONNECTION = Set.of("prepareStatement", "prepareCall", "nativeSQL");

  private final Set<String> statements = ConcurrentHashMap.newKeySet();

  /** Every distinct SQL text sent so far. */
  List<String> statements() {
    return List.copyOf(statements);
  }

  /** {@code dataSource}, recording. */
  DataSource wrap(DataSource dataSource) {
    return proxy(DataSource.class, dataSource, (method, arguments, result) -> result instanceof Connection connection
        ? proxy(Connection.class, connection, this::onConnectionCall) : result);
  }

  private Object onConnectionCall(Method method, Object[] arguments, Object result) {
    if (SQL_METHODS_OF_CONNECTION.contains(method.getName())) {
      statements.add((String) arguments[0]);
    }
    if (result instanceof Statement statement && method.getName().equals("createStatement")) {
      return proxy(Statement.class, statement, (statementMethod, statementArguments, statementResult) -> {
        if ((statementMethod.getName().startsWith("execute") || statementMethod.getName().equals("addBatch"))
            && statementArguments != null && statementArguments.length > 0
            && statementArguments[0] instanceof String sql) {
          statements.add(sql);
        }
        return statementResult;
      });
    }
    return result;
  }

  /** What to return for a call on a wrapped object, given the wrapped object's result. */
  @FunctionalInterface
  private interface Interceptor {
    Object after(Method method, Object[] arguments, Object result);
  }

  private static <T> T proxy(Class<T> type, T target, Interceptor interceptor) {
    return type.cast(Proxy.newProxyInstance(SqlRecorder.class.getClassLoader(), new Class<?>[] {type},
        (proxy, method, arguments) -> {
          try {
            return interceptor.after(method, arguments, method.invoke(target, arguments));
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        }));
  }
}
