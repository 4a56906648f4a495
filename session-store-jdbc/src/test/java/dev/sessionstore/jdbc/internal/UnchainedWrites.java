package dev.sessionstore.jdbc.internal;

import dev.sessionstore.SessionStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Optional;

/**
 * Opens stores on PostgreSQL whose dialect says it cannot chain writes in one statement and has no append call, so
 * that they take the portable paths a database without data-modifying {@code WITH} clauses or functions takes:
 * statement by statement in one transaction, and appends by the locked path only.
 */
public final class UnchainedWrites {

  private UnchainedWrites() {
  }

  /** A store as {@link JdbcStore#open(StoreSettings)} opens it, but with writes unchained. */
  public static SessionStore open(StoreSettings settings) {
    Dialect postgres = new PostgresDialect();
    Dialect unchained = (Dialect) Proxy.newProxyInstance(Dialect.class.getClassLoader(),
        new Class<?>[] {Dialect.class}, (proxy, method, args) -> {
          if (method.getName().equals("chainsWrites")) {
            return false;
          }
          if (method.getName().equals("appendInOneCall")) {
            return Optional.empty();
          }
          try {
            return method.invoke(postgres, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    return JdbcStore.open(settings, unchained);
  }
}
