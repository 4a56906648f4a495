package dev.sessionstore.jdbc.internal;

import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads a store runs in the background (deadline sweeper, notification sender, notification listener): each
 * named {@value #NAME_PREFIX}{@code <role> <store>}, a daemon, so that a store never keeps a JVM alive, and with an
 * uncaught-exception handler that logs, at error level, which thread stopped and what stops with it. Their loops
 * catch every {@link Throwable} themselves; the handler reports what escapes nonetheless, so no background work
 * ends unseen.
 */
final class BackgroundThreads {

  /** The start of every background thread's name. */
  static final String NAME_PREFIX = "session-store-";

  private static final Logger LOG = LoggerFactory.getLogger(BackgroundThreads.class);

  private BackgroundThreads() {
  }

  /**
   * A new, unstarted thread running {@code work}.
   *
   * @param role       what the thread does, in its name ({@code "listener"})
   * @param store      which store it serves, in its name
   * @param whatStops  what no longer happens if it stops, for the log line
   */
  static Thread create(String role, String store, String whatStops, Runnable work) {
    return factory(role, store, whatStops).newThread(work);
  }

  /** A factory of such threads, for executors. */
  static ThreadFactory factory(String role, String store, String whatStops) {
    return work -> {
      Thread thread = new Thread(work, NAME_PREFIX + role + " " + store);
      thread.setDaemon(true);
      thread.setUncaughtExceptionHandler((stopped, error) -> LOG.error(
          "session-store: background thread \"{}\" stopped by an unexpected error; {}", stopped.getName(), whatStops,
          error));
      return thread;
    };
  }
}
