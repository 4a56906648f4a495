package dev.sessionstore.spi;

import dev.sessionstore.StoreClosedException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Whether a {@link ValidatingSessionStore} is still open, consulted by every operation of the store and of its
 * aggregates before anything else. Thread-safe.
 */
final class OpenGate {

  private final AtomicBoolean closed = new AtomicBoolean();

  /** @throws StoreClosedException once {@link #close()} was called */
  void checkOpen() {
    if (closed.get()) {
      throw new StoreClosedException();
    }
  }

  /** Closes the gate; returns whether this call closed it. */
  boolean close() {
    return closed.compareAndSet(false, true);
  }

  /**
   * Runs a blocking wait of the adapter and returns its result when {@code answered} accepts it. A wait that ends
   * without an answer, or fails, once the gate is closed was released by the close: it throws
   * {@link StoreClosedException} instead.
   */
  <T> T await(Supplier<T> wait, Predicate<T> answered) {
    T result;
    try {
      result = wait.get();
    } catch (RuntimeException e) {
      if (closed.get()) {
        throw new StoreClosedException(e);
      }
      throw e;
    }
    if (!answered.test(result)) {
      checkOpen();
    }
    return result;
  }
}
