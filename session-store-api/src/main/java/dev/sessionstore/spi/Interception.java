package dev.sessionstore.spi;

import java.util.function.Supplier;

/**
 * What a {@link ForwardingSessionStore} does around every operation it forwards: the one hook a decorator that treats
 * all operations alike (metrics, traces, logging) implements, instead of overriding each method. The forwarders call
 * {@link #around} once per operation of the store or of one of its aggregates, on the caller's thread, and return
 * what it returns; an exception it lets through reaches the caller unchanged.
 *
 * <p>Operation names are stable and low-cardinality: {@code <aggregate>.<method>} ({@code events.append},
 * {@code events.appendAll}, {@code toolCalls.resolve}, {@code sessions.fork}, ...) and {@code commit} for
 * {@link dev.sessionstore.SessionStore#commit}; overloads of one method share its name. Implementations must be
 * thread-safe.
 */
public interface Interception {

  /**
   * Runs {@code call} (exactly once, unless this hook throws before calling it) and returns its result.
   *
   * @param operation the operation's name, as described on the type
   * @param sessionId the session the operation concerns, or {@code null} when it concerns none (a listing, a global
   *                  checkpoint, a store-wide purge) or the caller passed none
   * @param call      the forwarded call
   */
  <T> T around(String operation, String sessionId, Supplier<T> call);

  /** The hook that only runs the call: plain forwarding. */
  static Interception none() {
    return NoInterception.INSTANCE;
  }
}
