package dev.sessionstore.memory.internal;

import dev.sessionstore.Session;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.spi.IdOrder;
import dev.sessionstore.spi.Upserts;
import dev.sessionstore.spi.SessionCursor;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The sessions of one store and the store-wide indexes over them: the listing order, expiries and session names (run
 * and tool call ids are scoped by session and live in its state). Reads and writes of one session go through {@link #withExisting} and
 * {@link #withCreatable}, which run them under that session's lock; operations on different sessions never wait for
 * each other.
 */
final class SessionRegistry {

  private static final Comparator<SessionCursor> LISTING_ORDER =
      Comparator.comparing(SessionCursor::createdAt).thenComparing(SessionCursor::id, IdOrder.BY_CODE_POINT);

  /** Unique session names. */
  final OwnerIndex names = new OwnerIndex("session name");

  private final ConcurrentHashMap<String, SessionState> states = new ConcurrentHashMap<>();
  private final ConcurrentSkipListMap<SessionCursor, SessionState> byCreation =
      new ConcurrentSkipListMap<>(LISTING_ORDER);
  /** Sessions with an expiry, by expiry then listing position: what {@link #expiringBefore} reads a range of. */
  private final ConcurrentSkipListMap<ExpiryKey, SessionState> byExpiry = new ConcurrentSkipListMap<>(Comparator
      .comparing(ExpiryKey::expiresAt).thenComparing(ExpiryKey::position, Comparator.nullsFirst(LISTING_ORDER)));
  private final DeadlineScheduler deadlines;

  /** A session's place in {@link #byExpiry}. */
  private record ExpiryKey(Instant expiresAt, SessionCursor position) {

    /** The key of {@code session}, or {@code null} when it has no expiry. */
    static ExpiryKey of(Session session) {
      return session == null || session.expiresAt() == null ? null
          : new ExpiryKey(session.expiresAt(), SessionCursor.after(session));
    }
  }

  SessionRegistry(DeadlineScheduler deadlines) {
    this.deadlines = deadlines;
  }

  /**
   * Applies {@code action} to the session under its lock, or returns what {@code ifUnknown} supplies (without
   * locking anything) when the session does not exist.
   */
  <T> T withExisting(String sessionId, Function<SessionState, T> action, Supplier<T> ifUnknown) {
    SessionState state = states.get(sessionId);
    if (state == null) {
      return ifUnknown.get();
    }
    state.lock.lock();
    try {
      if (state.exists()) {
        return action.apply(state);
      }
    } finally {
      state.lock.unlock();
    }
    return ifUnknown.get();
  }

  /**
   * Applies {@code action} to the session's state under its lock, creating the state if needed. The action decides
   * whether the session comes into existence ({@link #store}, {@link #ensureExists}); if it throws or leaves the
   * session nonexistent, the state is dropped again.
   */
  <T> T withCreatable(String sessionId, Function<SessionState, T> action) {
    SessionState state = lockLive(sessionId);
    try {
      return action.apply(state);
    } finally {
      discardIfUnused(state);
      state.lock.unlock();
    }
  }

  /** The session record, read without locking, or {@code null} when it does not exist. */
  Session session(String sessionId) {
    SessionState state = states.get(sessionId);
    return state == null ? null : state.session();
  }

  /**
   * The live state of {@code sessionId}, created if absent, with its lock held by the caller. The state may not
   * hold a session yet.
   */
  SessionState lockLive(String sessionId) {
    while (true) {
      SessionState state = states.get(sessionId);
      if (state == null) {
        state = states.computeIfAbsent(sessionId, SessionState::new);
      }
      state.lock.lock();
      if (!state.isRemoved()) {
        return state;
      }
      state.lock.unlock();
    }
  }

  /** Drops {@code state} if it holds no session and no reader waits on it; the caller holds its lock. */
  void discardIfUnused(SessionState state) {
    if (state.isUnused()) {
      state.remove();
      states.remove(state.id, state);
    }
  }

  /**
   * Makes {@code session} the record of {@code state}, whose lock the caller holds: a new session enters the
   * listing order, a changed expiry moves in the expiry index, and a name the session no longer has is released. The
   * caller has claimed the session's name.
   */
  void store(SessionState state, Session session) {
    Session previous = state.session();
    state.session(session);
    ExpiryKey before = ExpiryKey.of(previous);
    ExpiryKey after = ExpiryKey.of(session);
    if (before != null && !before.equals(after)) {
      byExpiry.remove(before, state);
    }
    if (after != null) {
      byExpiry.put(after, state);
    }
    if (previous == null) {
      byCreation.put(SessionCursor.after(session), state);
    } else if (previous.name() != null && !previous.name().equals(session.name())) {
      names.release(previous.name(), state.id);
    }
  }

  /** Creates the session with the defaults of a new {@link SessionWrite} unless it exists: implicit creation. */
  void ensureExists(SessionState state, Instant now) {
    if (!state.exists()) {
      store(state, Upserts.session(SessionWrite.of(state.id), null, now));
    }
  }

  /**
   * Deletes the session with everything it owns, if it exists and {@code condition} holds for it under its lock.
   *
   * @return whether it was deleted
   */
  boolean delete(String sessionId, Predicate<Session> condition) {
    return deleteIf(sessionId, state -> condition.test(state.session()));
  }

  /**
   * Deletes the session with everything it owns, if it exists and {@code condition} holds for its state under its
   * lock.
   *
   * @return whether it was deleted
   */
  boolean deleteIf(String sessionId, Predicate<SessionState> condition) {
    SessionState state = states.get(sessionId);
    if (state == null) {
      return false;
    }
    state.lock.lock();
    try {
      Session session = state.session();
      if (session == null || !condition.test(state)) {
        return false;
      }
      if (session.name() != null) {
        names.release(session.name(), sessionId);
      }
      state.toolCalls.keySet().forEach(toolCallId -> deadlines.cancel(DeadlineScheduler.key(sessionId, toolCallId)));
      byCreation.remove(SessionCursor.after(session), state);
      ExpiryKey expiry = ExpiryKey.of(session);
      if (expiry != null) {
        byExpiry.remove(expiry, state);
      }
      state.remove();
      states.remove(sessionId, state);
      return true;
    } finally {
      state.lock.unlock();
    }
  }

  /** The existing sessions' states in listing order (creation time, then id), strictly after {@code from}. */
  Collection<SessionState> inListingOrder(SessionCursor from) {
    NavigableMap<SessionCursor, SessionState> view = from == null ? byCreation : byCreation.tailMap(from, false);
    return view.values();
  }

  /**
   * The states of the sessions whose expiry is strictly before {@code instant}, in listing order strictly after
   * {@code from}: a range of the expiry index, so sessions expiring later (or never) are not visited.
   */
  Collection<SessionState> expiringBefore(Instant instant, SessionCursor from) {
    NavigableMap<SessionCursor, SessionState> ordered = new TreeMap<>(LISTING_ORDER);
    byExpiry.headMap(new ExpiryKey(instant, null), false).forEach((key, state) -> {
      if (from == null || LISTING_ORDER.compare(key.position(), from) > 0) {
        ordered.put(key.position(), state);
      }
    });
    return ordered.values();
  }

  /** Every state, in no particular order; a weakly consistent view that tolerates concurrent changes. */
  Collection<SessionState> all() {
    return states.values();
  }

  /** Wakes every reader waiting on any session, so that it re-checks the store and its query. */
  void wakeWaiters() {
    for (SessionState state : states.values()) {
      state.lock.lock();
      try {
        state.appended.signalAll();
        state.toolCallsChanged.signalAll();
      } finally {
        state.lock.unlock();
      }
    }
  }
}
