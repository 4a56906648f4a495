package dev.sessionstore.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * A data source that counts the statements its connections execute (each {@code execute*} call, a batch counting
 * once per statement it holds) and the rows they report written, and keeps the text of each statement executed, for
 * tests that prove a cost by counting rather than timing. Thread-safe.
 */
public final class StatementCounter {

  private final AtomicLong statements = new AtomicLong();
  private final AtomicLong rowsWritten = new AtomicLong();
  private final List<String> texts = new ArrayList<>();

  /** The statements executed so far. */
  public long statements() {
    return statements.get();
  }

  /** The rows the executed statements reported written so far. */
  public long rowsWritten() {
    return rowsWritten.get();
  }

  /** The text of every statement executed so far, in order (a batch once per statement it holds). */
  public synchronized List<String> texts() {
    return List.copyOf(texts);
  }

  /** {@code dataSource} with its connections' statements counted. */
  public DataSource wrap(DataSource dataSource) {
    return proxy(DataSource.class, dataSource, (method, args, result) ->
        result instanceof Connection connection ? proxy(Connection.class, connection, this::onConnection) : result);
  }

  private Object onConnection(Method method, Object[] args, Object result) {
    String sql = args != null && args.length > 0 && args[0] instanceof String text ? text : "(plain statement)";
    if (result instanceof CallableStatement statement) {
      return proxy(CallableStatement.class, statement, (m, a, r) -> onStatement(sql, m, a, r));
    }
    if (result instanceof PreparedStatement statement) {
      return proxy(PreparedStatement.class, statement, (m, a, r) -> onStatement(sql, m, a, r));
    }
    if (result instanceof Statement statement) {
      return proxy(Statement.class, statement, (m, a, r) -> onStatement(null, m, a, r));
    }
    return result;
  }

  private Object onStatement(String prepared, Method method, Object[] args, Object result) {
    String name = method.getName();
    String sql = prepared != null ? prepared
        : args != null && args.length > 0 && args[0] instanceof String text ? text : "(batch)";
    if (name.equals("executeBatch") || name.equals("executeLargeBatch")) {
      int[] counts = result instanceof int[] ints ? ints : new int[0];
      count(sql, Math.max(1, counts.length));
      for (int count : counts) {
        rowsWritten.addAndGet(Math.max(0, count));
      }
    } else if (name.startsWith("execute")) {
      count(sql, 1);
      if (result instanceof Integer count) {
        rowsWritten.addAndGet(Math.max(0, count));
      } else if (result instanceof Long count) {
        rowsWritten.addAndGet(Math.max(0, count));
      }
    }
    return result;
  }

  private synchronized void count(String sql, int times) {
    statements.addAndGet(times);
    for (int i = 0; i < times; i++) {
      texts.add(sql);
    }
  }

  private interface After {
    Object apply(Method method, Object[] args, Object result) throws Exception;
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
