package dev.sessionstore.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A driver session that counts the conditional batches a store sends and can lose the answer of one: the batch is
 * applied (or not sent at all) and the store gets a client timeout, the unknown outcome of a lost connection. It can
 * do the same to the next conditional update or deletion outside a batch (a stored-value rewrite, a global
 * checkpoint's put or deletion), and run an action just before
 * the next batch is sent, after its writer read the partition.
 */
final class FaultySession {

  /** What happens to the batch the fault hits. */
  enum Fault {
    /** Sent and applied; the answer is lost. */
    APPLIED_ANSWER_LOST,
    /** Never sent; the store cannot tell. */
    NOT_SENT
  }

  final AtomicInteger batches = new AtomicInteger();
  private final CqlSession session;
  private volatile int faultAt = -1;
  private volatile Fault fault;
  private volatile Fault updateFault;
  private volatile Runnable beforeNextBatch;

  FaultySession(CqlSession real) {
    this.session = (CqlSession) Proxy.newProxyInstance(CqlSession.class.getClassLoader(),
        new Class<?>[] {CqlSession.class}, (proxy, method, args) -> invoke(real, method, args));
  }

  CqlSession session() {
    return session;
  }

  /** Makes the {@code n}-th batch from now (1 = the next) fail with {@code kind}. */
  void failBatch(int n, Fault kind) {
    fault = kind;
    faultAt = batches.get() + n;
  }

  /** Makes the next conditional update or deletion sent on its own (not in a batch) fail with {@code kind}. */
  void failNextConditionalWrite(Fault kind) {
    updateFault = kind;
  }

  /** Runs {@code action} once, just before the next batch is sent. */
  void beforeNextBatch(Runnable action) {
    beforeNextBatch = action;
  }

  private Object invoke(CqlSession real, Method method, Object[] args) throws Throwable {
    if (method.getName().equals("execute") && args != null && args.length == 1
        && args[0] instanceof BoundStatement bound && updateFault != null
        && (bound.getPreparedStatement().getQuery().startsWith("UPDATE")
            || bound.getPreparedStatement().getQuery().startsWith("DELETE"))
        && bound.getPreparedStatement().getQuery().contains(" IF ")) {
      Fault kind = updateFault;
      updateFault = null;
      if (kind == Fault.APPLIED_ANSWER_LOST) {
        forward(real, method, args);
      }
      throw new DriverTimeoutException("simulated: the answer of a conditional write was lost");
    }
    if (method.getName().equals("execute") && args != null && args.length == 1
        && args[0] instanceof BatchStatement) {
      Runnable action = beforeNextBatch;
      if (action != null) {
        beforeNextBatch = null;
        action.run();
      }
      int number = batches.incrementAndGet();
      if (number == faultAt) {
        if (fault == Fault.APPLIED_ANSWER_LOST) {
          forward(real, method, args);
        }
        throw new DriverTimeoutException("simulated: the answer of batch " + number + " was lost");
      }
    }
    return forward(real, method, args);
  }

  private static Object forward(CqlSession real, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
