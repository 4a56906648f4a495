package dev.sessionstore.jdbc.internal;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The waiting reads of one store, registered in-process by session: a waiting read holds a {@link Waiter} instead of
 * a connection, and re-reads the table each time its session is signalled. Signals come from this store's own
 * appends (directly, after commit) and from the listener for every other writer (by {@link #wakeKey}).
 *
 * <p>Thread-safe. A signal raised between a waiter's registration and its wait is not lost: the waiter compares
 * generations, it does not wait for the next notify.
 */
final class SessionWaiters {

  /** Session ids up to this many UTF-8 bytes travel as themselves; longer ones as a digest. */
  private static final int MAX_PLAIN_KEY_BYTES = 64;

  private final ConcurrentMap<String, Signal> signals = new ConcurrentHashMap<>();

  /**
   * The short text naming {@code sessionId} in a wake-up: the id itself when short, else {@code #} and a digest.
   * A digest collision only wakes an unrelated waiter, which re-reads and waits again.
   */
  static String wakeKey(String sessionId) {
    // A char takes at most 3 bytes in UTF-8 (a pair 4 for 2 chars): a short id is plain without encoding it.
    if (sessionId.length() * 3 <= MAX_PLAIN_KEY_BYTES
        || sessionId.getBytes(StandardCharsets.UTF_8).length <= MAX_PLAIN_KEY_BYTES) {
      return sessionId;
    }
    return "#" + HexFormat.of().formatHex(Digests.sha256(sessionId), 0, 16);
  }

  /**
   * Registers a waiting read of {@code sessionId}; close the waiter when done. Takes no monitor while it may block:
   * the map is only read or written with a signal already held, so a virtual thread registering beside thousands of
   * others never parks inside a map bin's monitor, which would pin its carrier.
   */
  Waiter register(String sessionId) {
    String key = wakeKey(sessionId);
    while (true) {
      Signal signal = signals.get(key);
      if (signal == null) {
        Signal created = new Signal(sessionId);
        signal = signals.putIfAbsent(key, created);
        if (signal == null) {
          return new Waiter(key, sessionId, created);
        }
      }
      if (signal.retain(sessionId)) {
        return new Waiter(key, sessionId, signal);
      }
      // Its last holder released it meanwhile and is removing it: register with the next one.
      Thread.onSpinWait();
    }
  }

  /** The sessions some waiting read waits on now: a snapshot. */
  Set<String> waitedSessions() {
    Set<String> waited = new HashSet<>();
    signals.values().forEach(signal -> signal.addSessionsTo(waited));
    return waited;
  }

  /**
   * How many times the waiting reads of {@code sessionId} were signalled since the first of those waiting now
   * registered (0 when none waits): tests count wake-ups with it instead of timing them.
   */
  long wakeUps(String sessionId) {
    Signal signal = signals.get(wakeKey(sessionId));
    return signal == null ? 0 : signal.generation();
  }

  /**
   * Wakes the waiting reads of {@code sessionId} for a change this instance committed just now: a read it wakes
   * learns when ({@link Waiter#awaitAfter}), for its wake latency.
   */
  void wakeAfterCommit(String sessionId) {
    Signal signal = signals.get(wakeKey(sessionId));
    if (signal != null) {
      signal.raise(true);
    }
  }

  /** Wakes the waiting reads of {@code sessionId} for a change of another process, made at a time not known here. */
  void wake(String sessionId) {
    wakeByKey(wakeKey(sessionId));
  }

  /** Wakes the waiting reads of the session named by a wake key, for a change made at a time not known here. */
  void wakeByKey(String key) {
    Signal signal = signals.get(key);
    if (signal != null) {
      signal.raise(false);
    }
  }

  /**
   * How many waiting reads of {@code sessionId} are parked now: have read, found nothing to return, and wait for a
   * signal or their next poll. An append made while a read is parked must wake it; tests observe this instead of
   * sleeping.
   */
  int parked(String sessionId) {
    Signal signal = signals.get(wakeKey(sessionId));
    return signal == null ? 0 : signal.parked();
  }

  /** Wakes every waiting read: after wake-ups may have been missed. */
  void wakeAll() {
    signals.values().forEach(signal -> signal.raise(false));
  }

  /** One waiting read's registration. Not shared between threads. */
  final class Waiter implements AutoCloseable {

    private final String key;
    private final String sessionId;
    private final Signal signal;

    private Waiter(String key, String sessionId, Signal signal) {
      this.key = key;
      this.sessionId = sessionId;
      this.signal = signal;
    }

    /** The current generation: pass it to {@link #awaitAfter} to wait for the next signal. */
    long generation() {
      return signal.generation();
    }

    /**
     * Waits until the session is signalled after {@code generation} or {@code nanos} pass, and returns when (by
     * {@link System#nanoTime()}) this instance last committed a change of the session after {@code generation}
     * ({@link #wakeAfterCommit}); empty when it did not: the wait timed out, or only another process's change, a
     * close or a missed wake-up signalled it.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    OptionalLong awaitAfter(long generation, long nanos) throws InterruptedException {
      return signal.awaitAfter(generation, nanos);
    }

    @Override
    public void close() {
      if (signal.release(sessionId)) {
        signals.remove(key, signal);
      }
    }
  }

  /**
   * A generation counter per wake key, shared by all of that key's waiters, with the sessions they wait on (more than
   * one only when two ids share a digest). Guarded by a {@link ReentrantLock}, not a monitor: a virtual thread that
   * waits on a monitor pins its carrier thread on Java 21 to 23, so thousands of waiting reads on virtual threads
   * would hold as many carriers; one parked on a lock's condition holds none.
   */
  private static final class Signal {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition raised = lock.newCondition();
    private long generation;
    /** The generation of the last raise for a change this instance committed, and when it was raised. */
    private long committedGeneration;
    private long committedAtNanos;
    /** Holders by the session they wait on; once none remain the signal is retired and never held again. */
    private final Map<String, Integer> holders = new HashMap<>();
    private boolean retired;
    private int parked;

    /** A signal held once, by a waiting read of {@code sessionId}. */
    Signal(String sessionId) {
      holders.put(sessionId, 1);
    }

    /** Adds a holder of {@code sessionId}; false, adding none, if the signal is retired. */
    boolean retain(String sessionId) {
      lock.lock();
      try {
        if (retired) {
          return false;
        }
        // plain code, no method reference: linking one on a virtual thread pins its carrier (the JDK initializes
        // its boxing adapters there), which a waiting read must not do
        Integer held = holders.get(sessionId);
        holders.put(sessionId, held == null ? 1 : held + 1);
        return true;
      } finally {
        lock.unlock();
      }
    }

    /** Drops one holder of {@code sessionId}; returns whether none remain, which retires the signal. */
    boolean release(String sessionId) {
      lock.lock();
      try {
        Integer held = holders.get(sessionId);
        if (held != null && held == 1) {
          holders.remove(sessionId);
        } else if (held != null) {
          holders.put(sessionId, held - 1);
        }
        retired = holders.isEmpty();
        return retired;
      } finally {
        lock.unlock();
      }
    }

    void addSessionsTo(Set<String> sessions) {
      lock.lock();
      try {
        sessions.addAll(holders.keySet());
      } finally {
        lock.unlock();
      }
    }

    long generation() {
      lock.lock();
      try {
        return generation;
      } finally {
        lock.unlock();
      }
    }

    void raise(boolean committedHere) {
      long now = committedHere ? System.nanoTime() : 0;
      lock.lock();
      try {
        generation++;
        if (committedHere) {
          committedGeneration = generation;
          committedAtNanos = now;
        }
        raised.signalAll();
      } finally {
        lock.unlock();
      }
    }

    int parked() {
      lock.lock();
      try {
        return parked;
      } finally {
        lock.unlock();
      }
    }

    OptionalLong awaitAfter(long seen, long nanos) throws InterruptedException {
      lock.lock();
      try {
        long remaining = nanos;
        parked++;
        try {
          while (generation == seen && remaining > 0) {
            remaining = raised.awaitNanos(remaining);
          }
        } finally {
          parked--;
        }
        return committedGeneration > seen ? OptionalLong.of(committedAtNanos) : OptionalLong.empty();
      } finally {
        lock.unlock();
      }
    }
  }
}
