package dev.sessionstore.jdbc.internal;

import dev.sessionstore.SessionStore;
import dev.sessionstore.spi.ForwardingSessionStore;
import dev.sessionstore.spi.ValidatingSessionStore;
import java.lang.reflect.Field;

/** What tests outside this package observe of a JDBC store's insides, instead of sleeping and hoping. */
public final class StoreInternals {

  private StoreInternals() {
  }

  /** How many waiting reads of {@code sessionId} are parked in {@code store}, waiting for a wake-up or a poll. */
  public static int parkedReads(SessionStore store, String sessionId) {
    return adapter(store).waiters().parked(sessionId);
  }

  /**
   * How many times the waiting reads of {@code sessionId} in {@code store} were woken since the first of those
   * waiting now registered (0 when none waits).
   */
  public static long wakeUps(SessionStore store, String sessionId) {
    return adapter(store).waiters().wakeUps(sessionId);
  }

  /** Whether {@code store} has a listener for other writers' appends at all. */
  public static boolean hasListener(SessionStore store) {
    return adapter(store).listener() != WakeUpListener.NONE;
  }

  /** Whether {@code store}'s listener receives notifications now (false while its connection is lost). */
  public static boolean isListening(SessionStore store) {
    return adapter(store).listener() instanceof PostgresNotificationListener listener && listener.isListening();
  }

  /** The JDBC adapter behind a store the builder built: inside the public store, behind the validating layer. */
  private static JdbcStore adapter(SessionStore store) {
    return (JdbcStore) field(field(store, ForwardingSessionStore.class, "delegate"), ValidatingSessionStore.class,
        "adapter");
  }

  private static Object field(Object owner, Class<?> type, String name) {
    try {
      Field field = type.getDeclaredField(name);
      field.setAccessible(true);
      return field.get(type.cast(owner));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("no field " + name + " in " + type.getName() + " to look behind", e);
    }
  }

  /** The prefix of every background thread's name. */
  public static String threadNamePrefix() {
    return BackgroundThreads.NAME_PREFIX;
  }
}
