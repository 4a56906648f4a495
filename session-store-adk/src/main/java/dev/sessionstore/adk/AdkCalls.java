package dev.sessionstore.adk;

import com.google.adk.sessions.SessionException;
import dev.sessionstore.Limits;
import dev.sessionstore.SessionStoreException;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.core.Single;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * How this module's ADK services call the store: blocking work on the service's {@link Scheduler} when subscribed,
 * store failures as ADK's {@link SessionException} (the store's exception as cause), and ADK names checked against
 * what session metadata can hold.
 */
final class AdkCalls {

  private AdkCalls() {
  }

  /** {@code work} run on {@code scheduler} when subscribed, its store failures as {@link SessionException}. */
  static <T> Single<T> single(Scheduler scheduler, Callable<T> work) {
    return Single.fromCallable(() -> guarded(work)).subscribeOn(scheduler);
  }

  /** Runs {@code work}, turning the store's failures into ADK's {@link SessionException}. */
  static <T> T guarded(Callable<T> work) throws Exception {
    try {
      return work.call();
    } catch (SessionStoreException e) {
      throw new SessionException(e.getMessage(), e);
    }
  }

  /**
   * {@code value}, checked: an ADK name (app, user, session id) is stored as a session metadata value.
   *
   * @throws NullPointerException     naming {@code field} if {@code value} is null
   * @throws IllegalArgumentException naming {@code field} if it is longer than a metadata value
   */
  static String requireName(String field, String value) {
    Objects.requireNonNull(value, field + " cannot be null");
    if (value.length() > Limits.MAX_METADATA_VALUE_LENGTH) {
      throw new IllegalArgumentException(field + " is longer than " + Limits.MAX_METADATA_VALUE_LENGTH + " chars");
    }
    return value;
  }
}
