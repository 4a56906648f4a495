package dev.sessionstore.adk;

import com.google.adk.sessions.SessionException;
import dev.sessionstore.Limits;
import dev.sessionstore.SessionStoreException;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.core.Single;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * How this module's ADK services call the store: blocking work run when subscribed, on the thread that subscribes
 * or on the service's {@link Scheduler} when one was set; store failures as ADK's {@link SessionException} (the
 * store's exception as cause); and ADK names checked against what session metadata can hold. Immutable.
 */
final class AdkCalls {

  private final Optional<Scheduler> scheduler;

  private AdkCalls(Optional<Scheduler> scheduler) {
    this.scheduler = scheduler;
  }

  /** Calls run on {@code scheduler}, or on the subscribing thread when it is empty. */
  static AdkCalls on(Optional<Scheduler> scheduler) {
    return new AdkCalls(Objects.requireNonNull(scheduler, "scheduler"));
  }

  /** {@code work} run when subscribed, its store failures as {@link SessionException}. */
  <T> Single<T> single(Callable<T> work) {
    Single<T> call = Single.fromCallable(() -> guarded(work));
    return scheduler.isPresent() ? call.subscribeOn(scheduler.get()) : call;
  }

  /** {@code work} run when subscribed, empty when it returns null, its store failures as {@link SessionException}. */
  <T> Maybe<T> maybe(Callable<T> work) {
    Maybe<T> call = Maybe.fromCallable(() -> guarded(work));
    return scheduler.isPresent() ? call.subscribeOn(scheduler.get()) : call;
  }

  /** {@code work} run when subscribed, its result dropped, its store failures as {@link SessionException}. */
  Completable completable(Callable<?> work) {
    Completable call = Completable.fromCallable(() -> guarded(work));
    return scheduler.isPresent() ? call.subscribeOn(scheduler.get()) : call;
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
