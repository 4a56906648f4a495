package dev.sessionstore.springai;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * A data source that counts the statements its connections execute (each {@code execute*} call, a batch counting
 * once per statement it holds) and the rows they report written.
 */
final class StatementCounter {

  private final AtomicLong statements = new AtomicLong();
  private final AtomicLong rowsWritten = new AtomicLong();

  long statements() {
    return statements.get();
  }

  long rowsWritten() {
    return rowsWritten.get();
  }

  DataSource wrap(DataSource dataSource) {
    return proxy(DataSource.class, dataSource, (method, args, result) ->
        result instanceof Connection connection ? proxy(Connection.class, connection, this::onConnection) : result);
  }

  private Object onConnection(java.lang.reflect.Method method, Object[] args, Object result) {
    if (result instanceof CallableStatement statement) {
      return proxy(CallableStatement.class, statement, this::onStatement);
    }
    if (result instanceof PreparedStatement statement) {
      return proxy(PreparedStatement.class, statement, this::onStatement);
    }
    if (result instanceof Statement statement) {
      return proxy(Statement.class, statement, this::onStatement);
    }
    return result;
  }

  private Object onStatement(java.lang.reflect.Method method, Object[] args, Object result) {
    String name = method.getName();
    if (name.equals("executeBatch") || name.equals("executeLargeBatch")) {
      int[] counts = result instanceof int[] ints ? ints : new int[0];
      statements.addAndGet(Math.max(1, counts.length));
      for (int count : counts) {
        rowsWritten.addAndGet(Math.max(0, count));
      }
    } else if (name.startsWith("execute")) {
      statements.incrementAndGet();
      if (result instanceof Integer count) {
        rowsWritten.addAndGet(Math.max(0, count));
      } else if (result instanceof Long count) {
        rowsWritten.addAndGet(Math.max(0, count));
      }
    }
    return result;
  }

  private interface After {
    Object apply(java.lang.reflect.Method method, Object[] args, Object result) throws Exception;
  }

  private static <T> T proxy(Class<T> type, T target, After after) {
    InvocationHandler handler = (proxy, method, args) -> {
      if (method.getName().equals("unwrap") || method.getName().equals("isWrapperFor")) {
        return method.invoke(target, args);
      }
      Object result;
      try {
        result = method.invoke(target, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      return after.apply(method, args, result);
    };
    return type.cast(Proxy.newProxyInstance(StatementCounter.class.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
