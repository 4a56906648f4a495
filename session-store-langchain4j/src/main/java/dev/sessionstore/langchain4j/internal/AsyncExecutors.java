package dev.sessionstore.langchain4j.internal;

import java.lang.reflect.Method;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor the {@code *Async} methods run on unless the caller sets one: a new virtual thread per task on a JVM
 * that has them (Java 21 and later, found by reflection since this library is compiled for Java 17), else a cached
 * pool of daemon platform threads named {@value #THREAD_PREFIX}n. One executor for the whole JVM, made on first use.
 */
public final class AsyncExecutors {

  /** The name prefix of the platform threads of the fallback pool. */
  public static final String THREAD_PREFIX = "session-store-langchain4j-";

  private static final Logger LOG = LoggerFactory.getLogger(AsyncExecutors.class);

  private AsyncExecutors() {
  }

  /** The shared default executor. */
  public static Executor shared() {
    return Holder.SHARED;
  }

  /** Whether this JVM has virtual threads, so that {@link #shared()} runs each task on a new one. */
  public static boolean virtualThreads() {
    return Holder.VIRTUAL;
  }

  private static Executor create() {
    try {
      Method factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
      return (ExecutorService) factory.invoke(null);
    } catch (NoSuchMethodException e) {
      LOG.debug("no virtual threads on Java {}: async calls run on a cached pool", Runtime.version().feature());
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("virtual threads could not be used, async calls run on a cached pool", e);
    }
    AtomicLong count = new AtomicLong();
    ThreadFactory threads = task -> {
      Thread thread = new Thread(task, THREAD_PREFIX + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
    return Executors.newCachedThreadPool(threads);
  }

  private static final class Holder {
    private static final Executor SHARED = create();
    private static final boolean VIRTUAL = !(SHARED instanceof java.util.concurrent.ThreadPoolExecutor);
  }
}
